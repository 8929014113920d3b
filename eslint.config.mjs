// The lint step of `npm test` (tests/hygiene/regex-lint.test.mjs runs it): every regular
// expression in js/ is checked for super-linear backtracking and super-linear moves
// (eslint-plugin-regexp), so no parser of a value a server or a user sends can be made to
// take more than linear time. A RegExp built from text at run time cannot be checked, so
// it is refused.
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

export default [
  {
    files: ["js/**/*.ts", "js/**/*.js"],
    languageOptions: { parser: tseslint.parser, ecmaVersion: "latest", sourceType: "module" },
    plugins: { regexp },
    linterOptions: { reportUnusedDisableDirectives: "off" },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": "error",
      "no-restricted-syntax": [
        "error",
        { selector: "NewExpression[callee.name='RegExp']", message: "a RegExp built at run time escapes the backtracking lint: write a literal" },
        { selector: "CallExpression[callee.name='RegExp']", message: "a RegExp built at run time escapes the backtracking lint: write a literal" },
      ],
    },
  },
];
