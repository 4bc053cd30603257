// The page's own scripts (_static/exercises.js, _static/predict.js) run in Node's vm, with no build and no browser:
// the judge of a typed answer and of a predict guess, for tests/show/test_judge_twins.py, which compares them with
// the library's (roofline.show.exercises.judge, roofline.show.predict.guess) on the same cases.
//
// stdin:  {"sets": [Exercises.data(), …], "answers": [[set, key, typed, digits], …],
//          "guesses": [[question, part, typed, unit], …]}
// stdout: {"answers": [{reason, message, mistake}, …], "guesses": [{right, mistake, error, off} | {unreadable}, …]}
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const staticDir = path.resolve(__dirname, "..", "..", "_static");
// what the scripts touch when they load: no element to start on, no script tag of their own
const document = {readyState: "complete", currentScript: null, querySelectorAll: () => [], addEventListener() {}};
const context = vm.createContext({document, console});
context.window = context;
for (const name of ["exercises.js", "predict.js"]) {
  vm.runInContext(fs.readFileSync(path.join(staticDir, name), "utf8"), context, {filename: name});
}

const input = JSON.parse(fs.readFileSync(0, "utf8"));
const answers = (input.answers || []).map(([set, key, typed, digits]) => {
  const data = input.sets[set];
  const v = context.rlNumbers.verdict(data, data.questions[key], typed, digits);
  return {reason: v.reason, message: v.message, mistake: v.mistake || ""};
});
const guesses = (input.guesses || []).map(([question, part, typed, unit]) => {
  const v = context.rlPredict.judgeGuess(question, part, typed, unit);
  if (v.unreadable) return {unreadable: true};
  return {right: v.right, mistake: v.mistake ? v.mistake.kind : "", error: v.error,
          ...(v.off !== undefined ? {off: v.off} : {})};
});
process.stdout.write(JSON.stringify({answers, guesses}));
