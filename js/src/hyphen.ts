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

// Words the syllable rule gets wrong (compounds, English spellings), by their lower case:
// "|" marks where they may break. A board file can give a name's break points itself
// (`<tile id>.breaks = Nacht|win|kel` in its .properties file, see docs/board-format.md).
const EXCEPTIONS = new Map(Object.entries({
  boardwalk: "board|walk", charles: "charles", kentucky: "ken|tucky", festival: "fes|ti|val",
  hospital: "hos|pi|tal", laundrette: "laun|drette", parking: "park|ing",
  nachtwinkel: "nacht|win|kel", gevangenis: "ge|van|ge|nis", graslei: "gras|lei",
  inschrijvingsgeld: "in|schrij|vings|geld", leslokaal: "les|lo|kaal", sporthal: "sport|hal",
  wetenschapslabo: "we|ten|schaps|la|bo", wetenschapspark: "we|ten|schaps|park",
  belasting: "be|las|ting", inkomstenbelasting: "in|kom|sten|be|las|ting",
}));

const SHY = "\u00ad";
const MIN_WORD = 7;
const MIN_LEFT = 2;
const MIN_RIGHT = 3;

function isVowel(ch: string, prev: string): boolean {
  // Dutch "ij" is a vowel; y after a vowel too.
  if (ch === "j" || ch === "J") return prev === "i" || prev === "I";
  return VOWELS.test(ch);
}

// "Nacht|win|kel" -> the word with soft hyphens at the marks, in the word's own letters.
function marked(word: string, pattern: string): string {
  let out = "";
  let k = 0;
  for (const piece of pattern.split("|")) {
    if (out) out += SHY;
    out += word.slice(k, k + piece.length);
    k += piece.length;
  }
  return out;
}

export function hyphenateWord(word: string): string {
  const known = EXCEPTIONS.get(word.toLowerCase());
  if (known !== undefined) return marked(word, known);
  if (word.length < MIN_WORD || !/^[\p{L}]+$/u.test(word)) return word;
  const vowel = [...word].map((ch, i) => isVowel(ch, i ? word[i - 1] : ""));
  const cuts: number[] = [];
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

// `breaks`: the board file's own break points for this name ("|" marks), used when they spell
// the same name.
export function hyphenate(text: string, breaks?: string): string {
  const name = String(text);
  if (typeof breaks === "string" && breaks.replace(/\|/g, "") === name) return breaks.replace(/\|/g, SHY);
  return name.replace(/[\p{L}]+/gu, (w) => hyphenateWord(w));
}
