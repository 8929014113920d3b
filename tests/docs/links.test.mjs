// Every link in the repository's Markdown (README.md, the other top-level *.md files,
// docs/**, bench/**) that points into the repository resolves: relative links, and links
// to this repository's own GitHub pages (…/blob/main/<path>, …/tree/main/<path>, which
// the shipped README uses), name a file or folder that exists, and an anchor (#part)
// names a heading of that page (GitHub's slugs) or an explicit id in it. Other absolute
// URLs are not fetched. Code blocks and code spans are not links.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The repository's own GitHub address (package.json of the published package). */
const manifest = JSON.parse(readFileSync(join(ROOT, "pkg-template", "package.json"), "utf8"));
const REPO = /github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(manifest.repository.url)?.[1];

/** The Markdown files checked, repository-relative. */
function markdownFiles() {
  const out = readdirSync(ROOT).filter((f) => f.endsWith(".md"));
  const walk = (dir) => {
    if (!existsSync(join(ROOT, dir))) return;
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) { if (e.name !== "node_modules") walk(p); } else if (e.name.endsWith(".md")) out.push(p);
    }
  };
  walk("docs");
  walk("bench");
  return out.sort();
}

/** `text` with fenced code blocks blanked (line numbers kept) and code spans removed. */
function withoutCode(text) {
  return text
    .replace(/^( {0,3})(```+|~~~+)[^\n]*\n[\s\S]*?^ {0,3}\2[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ""))
    .replace(/(`+)(?:(?!\1)[\s\S])+?\1/g, (span) => span.replace(/[^\n]/g, " "));
}

/** GitHub's anchor of a heading's text. */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/`/g, "")
    .replace(/\*/g, "");
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

const anchorCache = new Map();
/** Every anchor a Markdown file defines: its headings' slugs (with GitHub's -1, -2 for repeats) and explicit ids. */
function anchors(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const text = readFileSync(file, "utf8");
  const plain = text.replace(/^( {0,3})(```+|~~~+)[^\n]*\n[\s\S]*?^ {0,3}\2[^\n]*$/gm, "");
  const seen = new Map();
  const out = new Set();
  const add = (s) => {
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  };
  const lines = plain.split("\n");
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line);
    if (atx) add(slug(atx[1]));
    else if (/^ {0,3}(=+|-+)\s*$/.test(line) && i > 0 && lines[i - 1].trim() && !/^\s*([-*_]\s*){3,}$/.test(line)) add(slug(lines[i - 1]));
  });
  for (const m of text.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  anchorCache.set(file, out);
  return out;
}

/** [line, target] of every link in a Markdown text. */
function links(text) {
  const src = withoutCode(text);
  const found = [];
  const at = (i) => src.slice(0, i).split("\n").length;
  for (const m of src.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push([at(m.index), m[1]]);
  for (const m of src.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) found.push([at(m.index), m[1]]);
  for (const m of src.matchAll(/<(?:a|img)\s+[^>]*?(?:href|src)="([^"]+)"/g)) found.push([at(m.index), m[1]]);
  return found;
}

/** Where a link points inside the repository: { path, anchor } (path relative to ROOT), or null when it points elsewhere. */
function inRepository(from, target) {
  const own = REPO && new RegExp(`^https://github\\.com/${REPO.replace(/[.]/g, "\\.")}/(?:blob|tree)/main/([^?#]*)(?:\\?[^#]*)?(?:#(.*))?$`).exec(target);
  if (own) return { path: decodeURIComponent(own[1]).replace(/\/$/, ""), anchor: own[2] };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return null; // another site, mailto:, …
  const [pathPart, anchor] = target.split("#");
  const path = decodeURIComponent(pathPart.split("?")[0]);
  const abs = path === "" ? join(ROOT, from) : path.startsWith("/") ? join(ROOT, path) : resolve(ROOT, dirname(from), path);
  return { path: relative(ROOT, abs).split(sep).join("/"), anchor };
}

test("every link into the repository from its Markdown resolves to a file and, with #anchor, to a heading", () => {
  const files = markdownFiles();
  assert.ok(files.includes("README.md") && files.some((f) => f.startsWith("docs/")), "README.md and docs/ are checked");
  const broken = [];
  let checked = 0;
  for (const file of files) {
    for (const [line, target] of links(readFileSync(join(ROOT, file), "utf8"))) {
      const where = inRepository(file, target);
      if (!where) continue;
      checked++;
      const abs = join(ROOT, where.path);
      if (where.path.startsWith("..") || !existsSync(abs)) {
        broken.push(`${file}:${line}: ${target} (no ${where.path || "."})`);
        continue;
      }
      if (where.anchor && statSync(abs).isFile() && abs.endsWith(".md") && !anchors(abs).has(decodeURIComponent(where.anchor))) {
        broken.push(`${file}:${line}: ${target} (no heading #${where.anchor} in ${where.path})`);
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked > 0, "some links were checked");
});

test("the link check reads links, code and GitHub's heading anchors as GitHub does", () => {
  assert.deepEqual(links("See [a](x.md#y), ![i](img.svg) and `[no](code.md)`.\n\n```\n[no](block.md)\n```\n[ref]: ref.md\n<a href=\"h.md\">h</a>"),
    [[1, "x.md#y"], [1, "img.svg"], [6, "ref.md"], [7, "h.md"]]);
  assert.equal(slug("The `workerd` build: Wrangler & Miniflare"), "the-workerd-build-wrangler--miniflare");
  assert.equal(slug("retry(fn, options?)"), "retryfn-options");
  assert.equal(slug("Übergang, 2. Teil"), "übergang-2-teil");
  assert.deepEqual(inRepository("docs/guides/a.md", "../API.md#x"), { path: "docs/API.md", anchor: "x" });
  assert.deepEqual(inRepository("README.md", `https://github.com/${REPO}/blob/main/docs/guides/fetch.md#top`), { path: "docs/guides/fetch.md", anchor: "top" });
  assert.equal(inRepository("README.md", "https://example.com/x.md"), null);
});
