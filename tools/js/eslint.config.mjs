// ESLint (make lint, first in .ci/run): the recommended rules over the site's own scripts, each with the globals of
// where it runs. The packages come from tools/js/package.json, installed by the Makefile into _build/tools/js (not
// beside this file: Sphinx would read their README files as pages); they are resolved from there.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const tools = createRequire(new URL("../../_build/tools/js/package.json", import.meta.url));
const load = async (name) => (await import(pathToFileURL(tools.resolve(name)).href)).default;
const js = await load("@eslint/js");
const globals = await load("globals");

export default [
  { ignores: ["_build/**", ".venv/**", "**/node_modules/**", "_static/vendor/**"] },   // (vendor: uPlot, as released)
  js.configs.recommended,
  {
    // the pages' scripts: ES modules in the browser, which import what they share (_static/core.js, judge.js) and
    // the modules they load later (predict.js, variants.js, why-panel.js)
    files: ["_static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // Sphinx's search page runs this one as a classic script
    files: ["tools/coursebook/search_ko.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    // Sphinx's search language file: it reads the page's index (ROOFLINE_SEARCH, written by the build) and Sphinx's
    // globals, and defines the hooks Sphinx calls by name (splitQuery, Stemmer)
    files: ["tools/coursebook/search_ko.js"],
    languageOptions: { globals: { ROOFLINE_SEARCH: "readonly", Search: "readonly", Scorer: "readonly",
                                  stopwords: "readonly" } },
    rules: { "no-unused-vars": ["error", { vars: "local" }] },
  },
  {
    // the offline control is an ES module; the service worker runs in its own scope (BUILD is prepended by the build)
    files: ["tools/coursebook/offline_ui.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["tools/coursebook/offline_sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker, BUILD: "readonly" } },
  },
  {
    // Node: this file and the tests' scripts that node runs
    files: ["tools/js/**/*.mjs", "tests/**/*.mjs", "tests/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
