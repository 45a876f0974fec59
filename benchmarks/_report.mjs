// Shared output of the JavaScript benchmarks, as benchmarks/_report.py prints it for the
// Python ones: a readable table, then one JSON line per figure (`metric`, `value`,
// `unit`, in that order).

/**
 * @typedef {object} Figure
 * @property {string} metric  e.g. "sdk.patch.cpu_ratio"
 * @property {number} value
 * @property {string} unit  "1", "us", "ms"...
 * @property {string} [label]  a short description for the table
 * @property {string} [target]  e.g. "<= 1.05", shown in the table only
 */

/** @param {number} value */
function formatValue(value) {
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString("en-US");
  return Number(value.toPrecision(3)).toString();
}

/**
 * Prints `title`, a table of `figures`, then one JSON line per figure.
 * @param {string} title
 * @param {Figure[]} figures
 */
export function report(title, figures) {
  const rows = [["metric", "value", "unit", "target", "what"]];
  for (const f of figures) {
    rows.push([f.metric, formatValue(f.value), f.unit, f.target ?? "", f.label ?? ""]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const lines = [title];
  rows.forEach((row, n) => {
    const cells = row.map((cell, i) => (i === 1 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])));
    lines.push(cells.join("  ").trimEnd());
    if (n === 0) lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  });
  lines.push("");
  // Spaced as Python's json.dumps writes them, so that both kinds of lines read alike.
  for (const f of figures) {
    lines.push(
      `{"metric": ${JSON.stringify(f.metric)}, "value": ${JSON.stringify(f.value)}, "unit": ${JSON.stringify(f.unit)}}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
