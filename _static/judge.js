/* 적은 수의 읽기와 판정 (ES 모듈): 연습 문제(exercises.js)가 답을, 탐색기의 "먼저 예측하기"(predict.js)가 예측을
 * 이것으로 읽는다.
 *
 * 답은 빌드할 때 강의 라이브러리가 정확한 분수(분자, 분모)나 고르는 문제의 보기 이름으로 계산해 두었다. 이 모듈은
 * 모델의 값을 계산하지 않는다: 적은 값을 읽어 그 분수와 비교할 뿐이다(BigInt로 정확히). 규칙은 라이브러리의
 * judge(그 docstring)와 같고, 두 쪽이 tests/show/judge_cases.json의 같은 표로 시험된다(Node가 이 파일을 그대로
 * 가져온다: tests/show/twins.js):
 *   유효숫자 k개, 마지막 자리 10^e로 적은 값 x가 답 a를 10^e에서 반올림하거나 버린 값이고 k ≥ 판정 자릿수이면 정답
 *   (소수점 없는 정수 끝의 0은 독자가 뜻했을 법한 읽기를 모두 본다: "60"은 6·10¹ 또는 60), x = a이면 정답,
 *   흔한 실수의 값이나 다른 단위의 답과 정확히 같으면 "실수"/"단위", 자릿수만 모자라면 "자릿수", 같은 규칙으로
 *   흔한 실수의 값과 맞으면 "실수", 다른 단위로 맞으면(유효숫자 두 자리 이상) "단위", 그 밖은 "다시"(힌트).
 *   10^±limit 밖의 수는 지수를 만들지 않고 곧바로 읽지 않는다.
 */

const SUPER = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8",
  "⁹": "9", "⁻": "-", "⁺": "+"};
const WS = "[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";
const NUMBER = /^([+-]?)([0-9]{1,3}(?:([,_ \u00a0\u2009\u202f])[0-9]{3})(?:\3[0-9]{3})*|[0-9]*)(?:\.([0-9]*))?(?:e([+-]?[0-9]+))?$/;
const LIMIT = 30;   // 라이브러리의 exercises.LIMIT (자료의 limit)

/* 적은 답 → {m: BigInt (부호 포함), e: 마지막 자리의 지수, k: 유효숫자, z: 뜻했을 수도 있는 정수 끝의 0},
 * 숫자가 아니면 null, 10^±LIMIT 밖이면 {far: true} */
export function read(text, unit) {
  let t = text.replace(new RegExp(`^${WS}+|${WS}+$`, "g"), "");
  if (unit && t.endsWith(unit)) t = t.slice(0, -unit.length).replace(new RegExp(`${WS}+$`), "");
  t = t.replace(/\u2212/g, "-").replace(new RegExp(`${WS}*([×xX*^])${WS}*`, "g"), "$1");
  t = t.replace(/(?:[×xX*]10(?:\^|\*\*))([+-]?[0-9]+)$/, "e$1");
  t = t.replace(/[×xX*]10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)$/, (_, p) => "e" + [...p].map((c) => SUPER[c]).join(""));
  const m = NUMBER.exec(t.replace(/E/g, "e"));
  if (!m || !(m[2] || m[4])) return null;
  if (m[5] && m[5].replace(/^[+-]?0*/, "").length > 6) return {far: true};
  const whole = (m[2] || "").replace(/[^0-9]/g, ""), part = m[4], exp = parseInt(m[5] || "0", 10);
  let digits = (whole + (part || "")).replace(/^0+/, "");
  let e = exp - (part || "").length, z = 0;
  if (part === undefined) {            // 소수점 없는 정수: 끝의 0은 뜻했을 수도, 아닐 수도 있다
    const stripped = digits.replace(/0+$/, "");
    z = digits.length - stripped.length;
    e += z;
    digits = stripped;
  }
  const lead = e + digits.length - 1;
  if (Math.abs(e) > 2 * LIMIT || (digits && Math.abs(lead) > LIMIT)) return {far: true};
  let mant = BigInt(digits || "0");
  if (m[1] === "-") mant = -mant;
  return {m: mant, e, k: Math.max(1, digits.length), z};
}

export const abs = (x) => (x < 0n ? -x : x);
export const pow10 = (n) => 10n ** BigInt(n);

/* x = m·10^e와 답 p/q: 10^e에서 반올림하거나 버린 값인가 (exercises.in_place와 같은 규칙, 정확한 정수 비교) */
function inPlace(m, e, p, q) {
  const up = e >= 0 ? pow10(e) : 1n, down = e >= 0 ? 1n : pow10(-e);
  const xa = m * up * q, aa = p * down;   // x와 a에 q·down을 곱한 값
  if (xa === aa) return true;
  const off = abs(xa - aa), unit = up * q;  // |x − a|와 10^e에 q·down을 곱한 값
  if (unit <= abs(aa)) return 2n * off <= unit || (xa * aa > 0n && abs(xa) <= abs(aa) && off < unit);
  return abs(m) === 1n && 10n * abs(aa) >= unit && 20n * off <= unit;   // 반올림이 올라간 자리(9.99 → 10)
}

/* 끝의 0을 읽는 방법마다 [유효숫자, 마지막 자리] */
const readings = (x) => Array.from({length: x.z + 1}, (_, i) => [x.k + i, x.e - i]);
const same = (x, p, q) => x.m * (x.e >= 0 ? pow10(x.e) : 1n) * q === p * (x.e >= 0 ? 1n : pow10(-x.e));
const near = (x, p, q) => readings(x).some(([, e]) => inPlace(x.m * pow10(x.e - e), e, p, q));
const matches = (x, p, q, digits, exact) =>
  same(x, p, q) || (!exact && readings(x).some(([k, e]) => k >= digits && inPlace(x.m * pow10(x.e - e), e, p, q)));

function mistake(data, index) {
  const [kind, message] = data.mistakes[index];
  return {right: false, reason: "mistake", mistake: kind, message};
}

export function verdict(data, item, text, digits) {
  const mistakes = item.mistakes || [];
  if (item.choice !== undefined) {       // 고르는 문제: 보기 이름이 같아야 정답
    if (text === item.choice) return {right: true, reason: "right", message: item.right};
    const named = mistakes.find(([, key]) => key === text);
    return named ? mistake(data, named[0]) : {right: false, reason: "wrong", message: item.wrong};
  }
  const x = read(text, item.unit);
  if (!x) return {right: false, reason: "unreadable", message: data.unreadable};
  if (x.far) return {right: false, reason: "unreadable", message: data.tooFar};
  const [[, p0, q0], ...rest] = item.targets;
  const big = ([name, p, q]) => [name, BigInt(p), BigInt(q)];
  const named = mistakes.map(big), units = rest.map(big);
  if (matches(x, BigInt(p0), BigInt(q0), digits, item.exact)) return {right: true, reason: "right", message: item.right};
  const unit = (name) => ({right: false, reason: "unit", message: item.units[name]});
  for (const [index, p, q] of named) if (same(x, p, q)) return mistake(data, index);
  for (const [name, p, q] of units) if (same(x, p, q)) return unit(name);
  if (near(x, BigInt(p0), BigInt(q0))) return {right: false, reason: "digits", message: item.digits[String(digits)]};
  for (const [index, p, q] of named) if (matches(x, p, q, digits, item.exact)) return mistake(data, index);
  for (const [name, p, q] of units) if (matches(x, p, q, data.unitDigits, false)) return unit(name);
  return {right: false, reason: "wrong", message: item.wrong};
}
