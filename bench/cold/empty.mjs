// Cold-start reference: a bare Node start running an empty ES module.
