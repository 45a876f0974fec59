// @ts-check
// Pages over the table, one per hash: #/profile, #/stats, #/daily, #/replay/<game id>.
// Without a page hash the game or race underneath is what the player sees. An arena's
// page (#/arena/<arena id>) is the arena's own overlay (arena-flow.js), which follows
// the arena's heats onto the table.

import { routeArena } from "./arena-flow.js";
import { byId } from "./dom.js";
import { translate } from "./i18n.js";
import { showDaily } from "./daily.js";
import { showProfile } from "./profile.js";
import { closeReplay, showReplay } from "./replay.js";
import { showStats } from "./stats.js";

/** The link to a page, for `href`. @param {string} path e.g. `replay/abc` */
export function pageLink(path) {
  return `#/${path}`;
}

const page = byId("page", HTMLElement);
const body = byId("page-body", HTMLElement);

/** The page lies under the header, whose buttons (language, navigation) stay usable. */
function placeBelowHeader() {
  const header = document.querySelector("header.bar");
  page.style.top = `${header ? header.getBoundingClientRect().bottom : 0}px`;
}

function route() {
  placeBelowHeader();
  const path = location.hash.startsWith("#/") ? location.hash.slice(2) : "";
  const [name, arg] = path.split("/");
  if (name !== "replay") closeReplay();
  if (name === "arena" && arg) {
    page.hidden = true;
    page.dataset.page = "";
    document.body.dataset.page = "";
    routeArena(decodeURIComponent(arg));
    return;
  }
  routeArena(null);
  page.hidden = !name;
  page.dataset.page = name ?? "";
  // The new-game menu waits behind an open page (style.css hides it meanwhile).
  document.body.dataset.page = name ?? "";
  for (const tab of document.querySelectorAll("[data-nav]")) {
    tab.classList.toggle("active", tab.getAttribute("data-nav") === name);
  }
  if (!name) return;
  if (name === "profile") void showProfile(body);
  else if (name === "stats") void showStats(body);
  else if (name === "daily") void showDaily(body);
  else if (name === "replay" && arg) void showReplay(body, decodeURIComponent(arg));
  else location.hash = "";
}

byId("page-close", HTMLButtonElement).addEventListener("click", () => {
  history.pushState(null, "", location.pathname + location.search);
  route();
});
window.addEventListener("hashchange", route);
window.addEventListener("resize", placeBelowHeader);
// A language switch re-renders the open page in the new words.
byId("btn-lang", HTMLButtonElement).addEventListener("click", () =>
  setTimeout(() => {
    translate(page);
    route();
  }),
);
route();
