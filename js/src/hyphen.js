// Break points for long words in tile names, as soft hyphens (U+00AD): the browser then breaks a
// word only there and shows a hyphen. Chromium's own `hyphens: auto` needs dictionaries it
// downloads on demand (nothing is downloaded here), so a small syllable rule does it: split
// between vowel groups, giving the next syllable the longest consonant cluster that can start
// a word in English or Dutch ("Han-dels-beurs", "Gra-ven-steen", "Con-nec-ti-cut").
const VOWELS = /[aeiouyàáâäèéêëìíîïòóôöùúûüÿ]/i;
const ONSETS = new Set([
  "bl", "br", "ch", "cl", "cr", "dr", "dw", "fl", "fr", "gl", "gr", "kl", "kn", "kr", "kw", "ph",
  "pl", "pr", "sc", "sh", "sk", "sl", "sm", "sn", "sp", "st", "sw", "th", "tr", "tw", "vl", "vr",
  "wh", "wr", "zw", "sch", "scr", "str", "thr",
]);
// Consonant pairs that are one sound and are never split.
const TOGETHER = new Set(["ch", "ck", "ph", "sh", "th", "ng", "qu", "gh"]);

const SHY = "\u00ad";
const MIN_WORD = 7;
const MIN_LEFT = 2;
const MIN_RIGHT = 3;

function isVowel(ch, prev) {
  // Dutch "ij" is a vowel; y after a vowel too.
  if (ch === "j" || ch === "J") return prev === "i" || prev === "I";
  return VOWELS.test(ch);
}

export function hyphenateWord(word) {
  if (word.length < MIN_WORD || !/^[\p{L}]+$/u.test(word)) return word;
  const vowel = [...word].map((ch, i) => isVowel(ch, i ? word[i - 1] : ""));
  const cuts = [];
  let i = 0;
  while (i < word.length && !vowel[i]) i++;
  while (i < word.length) {
    while (i < word.length && vowel[i]) i++; // end of this vowel group
    const start = i;
    while (i < word.length && !vowel[i]) i++; // consonant cluster [start, i)
    if (i >= word.length) break; // trailing consonants belong to the last syllable
    const cluster = word.slice(start, i).toLowerCase();
    let cut = i - 1; // default: one consonant starts the next syllable
    for (let k = start; k < i - 1; k++) {
      const onset = cluster.slice(k - start);
      if (onset.length <= 3 && ONSETS.has(onset)) { cut = k; break; }
    }
    if (cut === i - 1 && cluster.length >= 2 && TOGETHER.has(cluster.slice(-2))) cut = i - 2;
    if (cluster.length === 0) cut = -1;
    if (cut >= MIN_LEFT && word.length - cut >= MIN_RIGHT) cuts.push(cut);
  }
  let out = "";
  let last = 0;
  for (const c of cuts) { out += word.slice(last, c) + SHY; last = c; }
  return out + word.slice(last);
}

export function hyphenate(text) {
  return String(text).replace(/[\p{L}]+/gu, (w) => hyphenateWord(w));
}
