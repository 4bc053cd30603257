// The site's scripts without comments and the spaces that separate nothing (tools/coursebook/minify.py): terser's
// public `minify` with neither its compressor nor its mangler, every script of one build in one Node process.
// stdin: {"name": {"code": "...", "module": true}, ...}; stdout: {"name": "compacted code\n", ...}.
// With --versioned (the build's own modules): each `import … from "./other.js"` and `import("./other.js")` that names
// another of the given scripts names it as "./other.js?v=<digest>", the first 20 hex digits of the sha-256 of the
// other's final text — the digest the build writes after each script's name in the pages (coursebook.assets
// fresh_digests). A page's <script type="module" src="…/core.js?v=D"> and an import of it are then one URL, so
// one instance of the module, and a new build's module is never put together with an old one from a cache.
// The import sources are found by acorn's syntax tree (a parser, not a pattern).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const tools = createRequire(`${process.argv[2]}/package.json`);
const { minify } = await import(tools.resolve("terser"));
const scripts = JSON.parse(readFileSync(0, "utf8"));
const done = {};
for (const [name, { code, module }] of Object.entries(scripts)) {
  const out = await minify(code, { compress: false, mangle: false, module, format: { comments: false } });
  done[name] = out.code.endsWith("\n") ? out.code : out.code + "\n";
}

if (process.argv[3] === "--versioned") {
  const acorn = await import(tools.resolve("acorn"));
  const final = {};
  const digest = (text) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 20);

  /* the string literals of `code` that name a module: [start, end, specifier] */
  function sources(code) {
    const found = [];
    const visit = (node) => {
      if (!node || typeof node.type !== "string") return;
      const source = ["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration", "ImportExpression"]
        .includes(node.type) ? node.source : null;
      if (source && source.type === "Literal" && typeof source.value === "string") {
        found.push([source.start, source.end, source.value]);
      }
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) value.forEach(visit);
        else if (value && typeof value === "object") visit(value);
      }
    };
    visit(acorn.parse(code, { ecmaVersion: "latest", sourceType: "module" }));
    return found;
  }

  /* `name`'s text with its imports of the other scripts versioned, after theirs (the import graph has no cycle) */
  function version(name, path = []) {
    if (final[name] !== undefined) return final[name];
    if (path.includes(name)) throw new Error(`the scripts import each other in a cycle: ${[...path, name].join(" → ")}`);
    let code = done[name];
    for (const [start, end, specifier] of sources(code).reverse()) {
      const other = specifier.startsWith("./") ? specifier.slice(2) : null;
      if (other === null || !(other in done)) continue;
      const text = version(other, [...path, name]);
      code = code.slice(0, start) + JSON.stringify(`./${other}?v=${digest(text)}`) + code.slice(end);
    }
    return (final[name] = code);
  }

  for (const name of Object.keys(done)) if (scripts[name].module) done[name] = version(name);
}
process.stdout.write(JSON.stringify(done));
