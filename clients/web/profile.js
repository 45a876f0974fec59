// @ts-check
// The profile page: choose a name (which creates the player on first use), rename, see
// the player's ratings, link another device with a one-time code, enter such a code
// here, or sign every other device out (a lost phone).

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./pages.js";
import { savedPlayer, savePlayer } from "./player-store.js";
import { client } from "./client.js";
import { ratingsSection } from "./ratings.js";

/** @typedef {import("./types.js").PlayerView} PlayerView */

/** @param {HTMLElement} root */
export async function showProfile(root) {
  let player = savedPlayer();
  /** @type {PlayerView | null} */
  let view = null;
  if (player) {
    try {
      // The token may have been revoked from another device.
      view = await client.players.me();
      player = { ...player, name: view.name };
      savePlayer(player);
    } catch {
      // offline or revoked: the form still shows the name kept here
    }
  }
  const error = h("p", { class: "form-error", "data-testid": "profile-error", hidden: true });
  const fail = (/** @type {unknown} */ e) => {
    error.textContent = errorText(e);
    error.hidden = false;
  };
  const nameInput = h("input", {
    name: "name", maxlength: 24, required: true, autocomplete: "nickname",
    value: player?.name ?? "", placeholder: t("name_placeholder"), "data-testid": "profile-name",
  });
  const nameForm = h("form", { "data-testid": "profile-form" },
    h("label", { class: "legend" }, t("profile_name")),
    h("div", { class: "row" }, nameInput,
      h("button", { type: "submit", class: "primary", "data-testid": "profile-save" },
        player ? t("profile_rename") : t("profile_create"))));
  nameForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const current = savedPlayer();
      if (current) {
        const view = await client.players.rename(nameInput.value);
        savePlayer({ ...current, name: view.name });
      } else {
        const created = await client.players.create(nameInput.value, { keep: false });
        savePlayer({ player_id: created.player_id, name: created.name, token: created.player_token });
      }
      await showProfile(root);
    } catch (err) {
      fail(err);
    }
  });

  const codeOut = h("div", { class: "join-code", "data-testid": "link-code", hidden: true });
  const codeButton = h("button", { type: "button", "data-testid": "link-code-new", disabled: !player }, t("link_code_new"));
  codeButton.addEventListener("click", async () => {
    try {
      const code = await client.players.newLinkCode();
      codeOut.textContent = code.link_code;
      codeOut.hidden = false;
    } catch (err) {
      fail(err);
    }
  });

  const linkInput = h("input", { name: "link", required: true, autocomplete: "off", spellcheck: "false", maxlength: 16, "data-testid": "link-input" });
  const linkForm = h("form", { "data-testid": "link-form" },
    h("label", { class: "legend" }, t("link_enter")),
    h("div", { class: "row" }, linkInput, h("button", { type: "submit", "data-testid": "link-submit" }, t("link_submit"))));
  linkForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const linked = await client.players.link(linkInput.value, { keep: false });
      savePlayer({ player_id: linked.player_id, name: linked.name, token: linked.player_token });
      await showProfile(root);
    } catch (err) {
      fail(err);
    }
  });

  const revokeOut = h("p", { class: "hint", "data-testid": "revoke-result", hidden: true });
  const revokeButton = h("button", { type: "button", class: "danger", "data-testid": "revoke-others", disabled: !player }, t("revoke_others"));
  revokeButton.addEventListener("click", async () => {
    if (!confirm(t("revoke_confirm"))) return;
    try {
      const { revoked } = await client.players.revokeOthers();
      revokeOut.textContent = t("revoke_done").replace("{n}", String(revoked));
      revokeOut.hidden = false;
    } catch (err) {
      fail(err);
    }
  });

  fill(root,
    h("h2", {}, t("profile_title")),
    h("p", { class: "hint", "data-testid": "profile-status" },
      player ? `${t("profile_playing_as")} ${player.name}` : t("profile_anonymous")),
    nameForm,
    view ? ratingsSection(view.ratings) : null,
    h("h3", {}, t("link_title")),
    h("p", { class: "hint" }, t("link_hint")),
    codeButton, codeOut,
    linkForm,
    h("h3", {}, t("revoke_title")),
    h("p", { class: "hint" }, t("revoke_hint")),
    revokeButton, revokeOut,
    error);
}
