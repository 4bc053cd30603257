// Do two scripts parse to the same program? `node same_program.mjs TOOLS SOURCE_TYPE A B` parses A and B with acorn
// (from the JS tools folder TOOLS) and compares their syntax trees without positions and without the raw text of
// literals (so `(s) =>` and `s=>`, 'a' and "a", {a: a} and {a} are the same; a regular expression's pattern, a string's value, every
// name and operator must be equal). Prints "same", or the first path where they differ, and exits 1.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const [tools, sourceType, first, second] = process.argv.slice(2);
const acorn = createRequire(`${tools}/package.json`)("acorn");
const SKIPPED = new Set(["start", "end", "loc", "range", "raw", "directive", "shorthand"]);   // ({a: a} is {a})

const tree = (file) => acorn.parse(readFileSync(file, "utf8"), { ecmaVersion: "latest", sourceType });

function difference(a, b, path) {
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b) ? null : path;
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return Object.is(a, b) || (typeof a === "bigint" && a === b) ? null : path;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !SKIPPED.has(k)));
  for (const key of keys) {
    const found = difference(a[key], b[key], `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

const found = difference(tree(first), tree(second), "Program");
console.log(found ? `differ at ${found}` : "same");
process.exit(found ? 1 : 0);
