// The site's scripts without comments and the spaces that separate nothing (tools/coursebook/minify.py): terser's
// public `minify` with neither its compressor nor its mangler, every script of one build in one Node process.
// stdin: {"name": {"code": "...", "module": false}, ...}; stdout: {"name": "compacted code", ...}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const tools = createRequire(`${process.argv[2]}/package.json`);
const { minify } = await import(tools.resolve("terser"));
const scripts = JSON.parse(readFileSync(0, "utf8"));
const done = {};
for (const [name, { code, module }] of Object.entries(scripts)) {
  const out = await minify(code, { compress: false, mangle: false, module, format: { comments: false } });
  done[name] = out.code;
}
process.stdout.write(JSON.stringify(done));
