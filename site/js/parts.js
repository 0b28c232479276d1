// parts.js — how the worker hands a request to the core: the files'
// texts travel beside the JSON request as strings of their own, each file
// naming its text by part (1-based), instead of escaped inside the JSON
// (api.ResolveParts on the Go side). For megabytes of runs file this
// saves a JSON.stringify here and the unescaping in the core.

// splitTexts returns the request as JSON with every {name, text} object's
// non-empty text replaced by {part: n}, and the texts in part order. The
// request itself is not changed.
export function splitTexts(request) {
  const parts = [];
  const walk = (v) => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    if (typeof v.name === 'string' && typeof v.text === 'string' && v.text !== '') {
      const { text, ...rest } = v;
      parts.push(text);
      return { ...rest, part: parts.length };
    }
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x);
    return out;
  };
  const json = JSON.stringify(walk(request));
  return { json, parts };
}
