// @ts-check
// Hints in a solo game: the service suggests one action from what the player can see; the
// page marks the cards to take and where they would go, and says why. The player plays
// it, or not: nothing here sends an action (DS-APP-1, TF-APP-1).

import { byId } from "./dom.js";
import { lang, t } from "./i18n.js";
import { errorText } from "./pages.js";
import { SolitaireError, client } from "./client.js";
import { savedSoloGame } from "./storage.js";

/** @typedef {import("./types.js").HintResponse} HintResponse */

const ui = {
  table: byId("table", HTMLElement),
  button: byId("btn-hint", HTMLButtonElement),
  resign: byId("btn-solo-resign", HTMLButtonElement),
  lang: byId("btn-lang", HTMLButtonElement),
  panel: byId("hint-panel", HTMLElement),
  action: byId("hint-action", HTMLElement),
  text: byId("hint-text", HTMLElement),
  countWrap: byId("hud-hints-wrap", HTMLElement),
  count: byId("hud-hints", HTMLElement),
};

/**
 * @typedef {{ code: string, text: () => string }} Failure
 * What the panel shows, for the game and version it was asked at; a refusal stays for
 * the whole game, a hint only until the position changes.
 * @type {{ gameId: string, version: string, answer: HintResponse | null, failed: Failure | null } | null}
 */
let shown = null;
/** @type {Failure} */
const NOT_ALLOWED = { code: "hints_not_allowed", text: () => t("hint_not_allowed") };
/** Games the service refused hints for (a race, a ranked daily attempt). */
const refused = new Set();
/** The game whose hint count the HUD shows. */
let counted = "";
let asking = false;

/** @param {HintResponse} answer */
function marks(answer) {
  const action = answer.hint?.action_object;
  if (!action) return { sources: [], target: null };
  const table = ui.table;
  /** @param {string} name */
  const pileNode = (name) => table.querySelector(`[data-pile="${name}"]`);
  if (action.type === "draw" || action.type === "recycle") {
    return { sources: [], target: pileNode("s") };
  }
  if (action.type !== "move" && action.type !== "tap") return { sources: [], target: null };
  const from = action.from.toLowerCase();
  const faces = Array.from(pileNode(from)?.querySelectorAll(".card.face[data-index]") ?? []);
  const count = action.type === "move" ? (action.count ?? 1) : 1;
  // Only the top of the waste or of a foundation is in play; a column gives its last cards.
  const sources = from.startsWith("c") ? faces.slice(-count) : faces.filter((n) => n.hasAttribute("data-top"));
  const to = action.type === "move" ? action.to.toLowerCase() : "f";
  return { sources, target: to.startsWith("f") && to.length === 1 ? pileNode("f") : pileNode(to) };
}

function render() {
  const gameId = ui.table.dataset.gameId ?? "";
  const solo = savedSoloGame(gameId);
  if (shown && (shown.gameId !== gameId || (!refused.has(gameId) && shown.version !== ui.table.dataset.version))) {
    shown = refused.has(gameId) ? { gameId, version: "", answer: null, failed: NOT_ALLOWED } : null;
  }
  ui.countWrap.hidden = counted !== gameId;
  ui.button.hidden = !solo || ui.resign.hidden;
  ui.button.disabled = asking || refused.has(gameId);
  for (const node of ui.table.querySelectorAll(".hint-source, .hint-target")) {
    node.classList.remove("hint-source", "hint-target");
  }
  ui.panel.hidden = !shown || ui.button.hidden;
  if (!shown) return;
  if (shown.failed) {
    ui.panel.dataset.kind = "refused";
    ui.action.textContent = shown.failed.code;
    ui.text.textContent = shown.failed.text();
    return;
  }
  const answer = /** @type {HintResponse} */ (shown.answer);
  ui.count.textContent = String(answer.hints_used);
  ui.panel.dataset.kind = "hint";
  // Without a hint, the answer says why (no useful move, or the game is over).
  const said = answer.hint ?? answer.no_hint;
  ui.panel.dataset.reason = said?.reason ?? "";
  ui.action.textContent = answer.hint?.action ?? "";
  ui.text.textContent = said ? (lang() === "fi" ? said.message_fi : said.message_en) : t("hint_none");
  const { sources, target } = marks(answer);
  for (const node of sources) node.classList.add("hint-source");
  target?.classList.add("hint-target");
}

async function ask() {
  const gameId = ui.table.dataset.gameId ?? "";
  const solo = savedSoloGame(gameId);
  if (!solo || asking) return;
  asking = true;
  render();
  try {
    const answer = await client.games.hint(solo.game_id, { token: solo.token });
    shown = { gameId, version: String(answer.version), answer, failed: null };
    counted = gameId;
  } catch (error) {
    const code = error instanceof SolitaireError && !error.local ? error.code : undefined;
    if (code === "hints_not_allowed") refused.add(gameId);
    const failed = code === "hints_not_allowed" ? NOT_ALLOWED : { code: code ?? "", text: () => errorText(error) };
    shown = { gameId, version: ui.table.dataset.version ?? "", answer: null, failed };
  } finally {
    asking = false;
  }
  render();
}

ui.button.addEventListener("click", () => void ask());
// The language button is handled first by app.js, which this module loads after.
ui.lang.addEventListener("click", render);
// The board draws itself afresh on every change and resize: the marks are put back then,
// or dropped with the panel once the position is not the one the hint was for.
new MutationObserver(render).observe(ui.table, {
  childList: true,
  attributes: true,
  attributeFilter: ["data-game-id", "data-version"],
});
new MutationObserver(render).observe(ui.resign, { attributes: true, attributeFilter: ["hidden"] });
render();
