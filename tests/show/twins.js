// The page's own modules (_static/judge.js, _static/predict.js) imported by Node, with no build and no browser:
// the judge of a typed answer and of a predict guess, for tests/show/test_judge_twins.py, which compares them with
// the library's (roofline.show.exercises.judge, roofline.show.predict.guess) on the same cases.
//
// stdin:  {"sets": [Exercises.data(), …], "answers": [[set, key, typed, digits], …],
//          "guesses": [[question, part, typed, unit], …]}
// stdout: {"answers": [{reason, message, mistake}, …], "guesses": [{right, mistake, error, off} | {unreadable}, …]}
import { readFileSync } from "node:fs";

// the page's ES modules, imported as they are (Node reads their module syntax): the judge imports nothing of the
// page; predict.js imports the shared core (core.js: the reader's record), which only needs a window to listen on when it loads
globalThis.window = { addEventListener() {} };
const { verdict } = await import("../../_static/judge.js");
const { judgeGuess } = await import("../../_static/predict.js");

const input = JSON.parse(readFileSync(0, "utf8"));
const answers = (input.answers || []).map(([set, key, typed, digits]) => {
  const data = input.sets[set];
  const v = verdict(data, data.questions[key], typed, digits);
  return {reason: v.reason, message: v.message, mistake: v.mistake || ""};
});
const guesses = (input.guesses || []).map(([question, part, typed, unit]) => {
  const v = judgeGuess(question, part, typed, unit);
  if (v.unreadable) return {unreadable: true};
  return {right: v.right, mistake: v.mistake ? v.mistake.kind : "", error: v.error,
          ...(v.off !== undefined ? {off: v.off} : {})};
});
process.stdout.write(JSON.stringify({answers, guesses}));
