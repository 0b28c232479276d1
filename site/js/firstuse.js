// firstuse.js — help for a first drop: a minimal schema file (SPEC A's
// schema, scoring/schema) for a CSV whose header is not the bundled
// register's. Pure functions (no DOM, no worker API); tested with node
// --test. The worker imports it only when a header does not match.

// csvRows parses the head of a CSV (RFC 4180: quotes, doubled quotes,
// CRLF), at most limit rows, header first.
export function csvRows(text, limit = 201) {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < s.length && rows.length < limit; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += c;
    }
  }
  if (rows.length < limit && (cell !== '' || row.length > 0)) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

// KEY_NAMES are header names that usually identify a record.
const KEY_NAMES = ['name', 'id', 'key', 'item', 'code', 'sku', 'label', 'title'];

// kindOf guesses a column's kind from its values: integer when every
// non-blank value is a whole number, yesno when every one is Y or N
// (any case), else text. The guess is a start: the user edits the file.
function kindOf(values) {
  const seen = values.map((v) => v.trim()).filter((v) => v !== '');
  if (seen.length === 0) return 'text';
  if (seen.every((v) => /^[+-]?\d+$/.test(v))) return 'integer';
  if (seen.every((v) => /^[yn]$/i.test(v))) return 'yesno';
  return 'text';
}

// suggestSchema returns a minimal schema for a CSV's header: the key
// column (a column named like an identifier, else the first), and every
// other column but "page" (which assigns rows to pages) with a kind
// guessed from its first rows. null when the header has fewer than two
// usable columns.
export function suggestSchema(text) {
  const rows = csvRows(text);
  if (rows.length === 0) return null;
  const header = rows[0].map((h) => h.trim().toLowerCase());
  const usable = header.map((h, i) => ({ h, i })).filter(({ h }) => h !== '' && h !== 'page')
    .filter(({ h }, k, all) => all.findIndex((x) => x.h === h) === k);
  if (usable.length < 2) return null;
  const key = usable.find(({ h }) => KEY_NAMES.includes(h)) || usable[0];
  const columns = usable.filter((c) => c !== key).map(({ h, i }) => ({
    name: h, kind: kindOf(rows.slice(1).map((r) => r[i] || '')),
  }));
  return { key: key.h, columns };
}

// schemaText writes a schema as the file to save: one column per line.
export function schemaText(s) {
  const cols = s.columns.map((c) => `    {"name": ${JSON.stringify(c.name)}, "kind": ${JSON.stringify(c.kind)}}`);
  return `{\n  "key": ${JSON.stringify(s.key)},\n  "columns": [\n${cols.join(',\n')}\n  ]\n}\n`;
}

// isHeaderMismatch reports whether a core error is a ground-truth CSV's
// header lacking the schema's columns (scoring/tabular.ReadGT).
export function isHeaderMismatch(err) {
  return !!err && typeof err.message === 'string' && /header lacks the column\(s\)/.test(err.message) &&
    typeof err.file === 'string' && /\.csv$/i.test(err.file);
}
