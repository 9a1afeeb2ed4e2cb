// The action area: exactly the legal options the server offers for this decision, never more; or, while it is
// someone else's turn in a hand the player is in, the pre-action buttons (check/fold, check, call, call any, fold to
// any bet) that act for them the moment their decision arrives.
//
// Bet/raise amounts are bounded by the engine's min and max (slider + amount box); the slider moves in big-blind
// steps (arrow keys too) and always reaches the minimum and the maximum; the presets are those the structure allows
// (PL, HPL, NL pot fractions; SL min/max); Fixed Limit shows a single fixed-amount button, and when the engine lists
// the only amounts it accepts (`allowed_to`, e.g. the stud open-pair choice of R-STUD), one button per amount.
// Draw decisions show Discard / Stand pat; 32 Card Draw adds the split-pot button (R-SPLIT), all-in Hold'em spots
// add the run-it-twice choice (R-RIT). Keyboard: F fold, C/K check or call, B/R bet or raise, D discard, P stand pat,
// arrows move the amount, Enter in the amount box confirms.

import { formatMoney, parseMoney } from "./util.js";
import { t } from "./i18n.js";
import { h } from "./vdom.js";
import { potRaiseTo } from "./table_model.js";

const has = (legal, ...kinds) => kinds.find((k) => legal.kinds.includes(k));

/** A signature of the decision: the bar's local state (amount, selection, lock) resets when it changes. */
export function decisionKey(model) {
  const l = model && model.legal;
  if (!l) return `none|${model ? model.handId : ""}|${model ? model.heroSeat : ""}`;
  return [model.handId, model.street, l.kinds.join(","), l.callAmount, l.minTo, l.maxTo, (l.allowed || []).join(","), model.toAct].join("|");
}

/** The amount the player would have to call now (while it is not their turn), from the bets on the table. */
export function amountToCall(model) {
  const hero = model.hero;
  if (!hero) return 0;
  const top = Math.max(0, ...model.seats.filter((s) => !s.empty).map((s) => s.bet));
  return Math.max(0, Math.min(top - hero.bet, hero.stack));
}

/** The step of the bet slider and arrow keys: one big blind (the small bet in limit and stud games). */
export function betStep(model) {
  const s = model.stakes || {};
  return Math.max(1, s.bigBlind || s.smallBet || 1);
}

/** Snap an amount to the big-blind grid inside [min, max]; min and max themselves are always reachable. */
export function snapAmount(value, legal, step) {
  const v = Math.max(legal.minTo, Math.min(legal.maxTo, Math.round(value)));
  if (v === legal.minTo || v === legal.maxTo) return v;
  const snapped = Math.round(v / step) * step;
  return Math.max(legal.minTo, Math.min(legal.maxTo, snapped));
}

/**
 * The action a pre-action stands for at this decision, or null (the player decides): check/fold checks when free
 * and folds otherwise; check only checks; call calls only the amount it was chosen for; call any calls whatever the
 * amount (or checks); fold to any bet checks when free and folds to a bet, for the rest of the hand.
 */
export function choosePreAction(model, pre) {
  const legal = model.legal;
  if (!pre || !legal || pre.handId !== model.handId) return null;
  const can = (k) => legal.kinds.includes(k);
  switch (pre.kind) {
    case "check_fold": case "fold_any":
      if (can("check")) return { kind: "check" };
      if (can("fold")) return { kind: "fold" };
      return null;
    case "check":
      return can("check") ? { kind: "check" } : null;
    case "call":
      if (can("call") && legal.callAmount === pre.amount) return { kind: "call" };
      if (can("check") && pre.amount === 0) return { kind: "check" };
      return null;
    case "call_any":
      if (can("call")) return { kind: "call" };
      if (can("check")) return { kind: "check" };
      return null;
    default:
      return null;
  }
}

// The keyboard key of a button (F, C, B, R): the key itself, not a word (issue #32: translate="no", like data).
const key = (k) => h("kbd", { translate: "no" }, k);

function waitText(model, view) {
  if (view && view.overText) return view.overText;
  const hero = model.hero;
  if (!hero) return t("table.choose_seat");
  if (model.toAct !== null && model.toAct !== undefined && model.seats[model.toAct] && !model.seats[model.toAct].empty)
    return t("table.waiting_for", { name: model.seats[model.toAct].alias });
  return t("table.waiting_others");
}

/** The pre-action toggles, while the player is in the hand and it is another player's turn. */
function preActions(model, view) {
  const hero = model.hero;
  if (!hero || model.handOver || hero.folded || hero.allIn || hero.inHand === false || hero.cards.length === 0
    || view.speed || view.options.replay) return null;
  const ui = view.ui;
  const money = (v) => formatMoney(v, model.currency);
  const toCall = amountToCall(model);
  const pre = ui.preAction && ui.preAction.handId === model.handId ? ui.preAction : null;
  // A "call X" chosen for an amount that changed no longer stands (the player decides again).
  if (pre && pre.kind === "call" && pre.amount !== toCall) ui.preAction = null;
  const chosen = ui.preAction;
  const options = toCall > 0
    ? [["fold_any", t("action.fold")], ["call", t("action.call_amount", { amount: money(toCall) })], ["call_any", t("pre.call_any")]]
    : [["check_fold", t("pre.check_fold")], ["check", t("action.check")], ["call_any", t("pre.call_any")], ["fold_any", t("pre.fold_any")]];
  return h("div", { class: "pre-actions", "data-testid": "pre-actions", role: "group", "aria-label": t("pre.label") },
    h("span", { class: "muted pre-label" }, t("pre.in_advance")),
    options.map(([kind, label]) => {
      const on = Boolean(chosen && chosen.kind === kind);
      return h("button", {
        key: kind, type: "button", class: `btn btn-small pre-action${on ? " pre-action--on" : ""}`, "data-pre": kind,
        "aria-pressed": on ? "true" : "false",
        onclick: () => {
          ui.preAction = on ? null : { kind, amount: toCall, handId: model.handId };
          view.update();
        },
      }, label);
    }));
}

/**
 * The action bar: one element that stays on screen (issue #14: the bar coming and going cost hundreds of DOM
 * changes a minute). Its content is either the waiting line with the pre-actions or the decision; each is one
 * keyed block, so a decision arriving or ending swaps one node, and the lock after a click is one attribute (the
 * decision is a <fieldset>: disabling it disables every control in it).
 */
export function actionArea(model, view) {
  // locked after a click until the next decision, and while offline (nothing can reach the server)
  const locked = Boolean(model.legal && (view.ui.sent || view.offline));
  return h("div", { key: "bar", class: "action-bar", role: "toolbar", "aria-label": t("action.bar") },
    model.legal && view.offline ? h("div", { key: "offline", class: "action-offline", "data-testid": "action-offline", role: "status" },
      t("error.not_connected")) : null,
    model.legal ? decision(model, view, locked)
    : h("div", { key: "idle", class: "action-idle" },
      h("div", { class: "action-wait", "data-testid": "action-wait" }, waitText(model, view)),
      preActions(model, view)));
}

function decision(model, view, locked) {
  const legal = model.legal;
  const ui = view.ui;
  const send = (kind, extra = {}) => view.sendAction(kind, extra);
  const currency = model.currency;
  const money = (v) => formatMoney(v, currency);
  const buttons = [];
  const sizing = [];
  const btn = (action, cls, label, onclick, attrs = {}) => h("button", {
    key: action, class: `btn ${cls}`, "data-action": action, disabled: Boolean(attrs.disabled),
    "data-key": attrs.dataKey, title: attrs.title, onclick,
  }, label);

  if (has(legal, "fold")) buttons.push(btn("fold", "btn-fold", [t("action.fold"), " ", key("F")], () => send("fold"), { dataKey: "f" }));
  if (has(legal, "check")) buttons.push(btn("check", "btn-check", [t("action.check"), " ", key("C")], () => send("check"), { dataKey: "c" }));
  if (has(legal, "call")) buttons.push(btn("call", "btn-call", [t("action.call_amount", { amount: money(legal.callAmount) }), " ", key("C")], () => send("call"), { dataKey: "c" }));
  const bringInKind = has(legal, "bring_in", "bringin");
  if (bringInKind) {
    const amount = legal.bringIn ?? model.stakes.bringIn;
    buttons.push(btn(bringInKind, "btn-call", (amount ? t("action.bring_in_amount", { amount: money(amount) }) : t("action.bring_in")), () => send(bringInKind, amount ? { amount } : {})));
  }
  if (has(legal, "complete")) {
    const amount = legal.completeTo ?? legal.minTo;
    buttons.push(btn("complete", "btn-raise", (amount ? t("action.complete_to", { amount: money(amount) }) : t("action.complete")), () => send("complete", amount ? { amount } : {})));
  }
  // R-STRADDLE: a voluntary blind raise before the cards, at the amount the engine allows.
  if (legal.kinds.includes("straddle")) {
    buttons.push(btn("straddle", "btn-raise", t("action.straddle_amount", { amount: money(legal.minTo) }), () => send("straddle", { amount: legal.minTo })));
  }

  const betKind = has(legal, "bet", "raise");
  if (betKind && legal.minTo !== null && legal.maxTo !== null) {
    const verb = (amount, allIn) => {
      const params = { amount: money(amount) };
      if (betKind === "bet") return allIn ? t("action.bet_all_in", params) : t("action.bet_amount", params);
      return allIn ? t("action.raise_to_all_in", params) : t("action.raise_to", params);
    };
    const allowed = Array.isArray(legal.allowed) && legal.allowed.length ? legal.allowed : null;
    const allInAt = (v) => model.hero && v >= legal.maxTo && legal.maxTo >= model.hero.stack + model.hero.bet;
    if (allowed && allowed.length > 1) {
      // Only these amounts are accepted (e.g. R-STUD open pair on fourth street: the small or the big bet).
      allowed.forEach((amount, i) => buttons.push(h("button", {
        key: `${betKind}-${amount}`, class: "btn btn-raise", "data-action": betKind, "data-amount": amount,
        "data-key": i === 0 ? "r" : undefined, onclick: () => send(betKind, { amount }),
      }, verb(amount, allInAt(amount)), i === 0 ? [" ", key(betKind === "bet" ? "B" : "R")] : null)));
    } else {
      const fixed = legal.minTo === legal.maxTo || (allowed && allowed.length === 1);
      const step = betStep(model);
      const amount = fixed ? (allowed ? allowed[0] : legal.minTo)
        : ui.amount !== undefined && ui.amount >= legal.minTo && ui.amount <= legal.maxTo ? ui.amount : legal.minTo;
      const setAmount = (value, from) => {
        ui.amount = from === "slider" || from === "key" ? snapAmount(value, legal, step)
          : Math.max(legal.minTo, Math.min(legal.maxTo, Math.trunc(value)));
        if (from !== "box") ui.amountText = null;
        ui.invalid = false;
        view.update();
      };
      buttons.push(h("button", {
        key: betKind, class: "btn btn-raise", "data-action": betKind, "data-key": "r",
        onclick: () => send(betKind, { amount }),
      }, verb(amount, allInAt(amount)), " ", key(betKind === "bet" ? "B" : "R")));
      if (!fixed) {
        const boxText = ui.amountText !== null && ui.amountText !== undefined ? ui.amountText : money(amount).replace(/[€$£,\s\u00a0\u202f]/g, "").replace(/[^\d.,]/g, "");
        const inRange = (v) => v !== null && v >= legal.minTo && v <= legal.maxTo;
        const presets = [[t("sizing.min"), legal.minTo, "min"]];
        if (model.sizeable && model.structure !== "SL") {
          presets.push([t("sizing.half_pot"), potRaiseTo(model, 0.5), "half"]);
          if (model.structure !== "HPL") {
            presets.push([t("sizing.three_quarter_pot"), potRaiseTo(model, 0.75), "three-quarters"]);
            presets.push([t("sizing.pot"), potRaiseTo(model, 1), "pot"]);
          }
        }
        presets.push([model.structure === "NL" ? t("sizing.all_in") : t("sizing.max"), legal.maxTo, "max"]);
        sizing.push(
          h("div", { key: "presets", class: "pot-shortcuts" }, presets.filter(([, v]) => v !== null).map(([text, value, name]) => h("button", {
            key: name, class: "btn btn-small", "data-shortcut": name, onclick: () => setAmount(value, "shortcut"),
          }, text))),
          h("div", { key: "slider", class: "slider-row" },
            h("button", { class: "btn btn-small step-btn", "data-step": "-1", "aria-label": t("sizing.step_less"),
              onclick: () => setAmount(amount - step, "key") }, "−"),
            h("input", {
              type: "range", class: "bet-slider", min: legal.minTo, max: legal.maxTo, step: 1, value: String(amount),
              "aria-label": t("sizing.amount"), "data-testid": "bet-slider", "data-step": step,
              oninput: (ev) => setAmount(Number(ev.target.value), "slider"),
              onkeydown: (ev) => {
                const d = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 5, PageDown: -5 }[ev.key];
                if (d === undefined) return;
                ev.preventDefault();
                setAmount(amount + d * step, "key");
              },
            }),
            h("button", { class: "btn btn-small step-btn", "data-step": "1", "aria-label": t("sizing.step_more"),
              onclick: () => setAmount(amount + step, "key") }, "+"),
            h("input", {
              type: "text", inputmode: "decimal", class: `bet-amount${ui.invalid ? " invalid" : ""}`, "aria-label": t("sizing.amount"),
              "data-testid": "bet-amount", value: boxText,
              title: ui.invalid ? t("sizing.between", { min: money(legal.minTo), max: money(legal.maxTo) }) : null,
              oninput: (ev) => {
                ui.amountText = ev.target.value;
                const parsed = parseMoney(ev.target.value, currency);
                if (!inRange(parsed)) { ui.invalid = true; view.update(); return; }
                ui.invalid = false;
                ui.amount = parsed;
                view.update();
              },
              // An out-of-range or malformed entry changes nothing: the box goes back to the last valid amount.
              onchange: (ev) => {
                const parsed = parseMoney(ev.target.value, currency);
                setAmount(inRange(parsed) ? parsed : amount, "change");
              },
              onkeydown: (ev) => {
                if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
                  ev.preventDefault();
                  setAmount(amount + (ev.key === "ArrowUp" ? step : -step), "key");
                  return;
                }
                if (ev.key !== "Enter") return;
                ev.preventDefault();
                const parsed = parseMoney(ev.target.value, currency);
                if (!inRange(parsed)) { setAmount(amount, "change"); return; }
                ui.amount = parsed;
                ui.amountText = null;
                send(betKind, { amount: parsed });
              },
            })));
      }
    }
  }

  // Draw: the selection is made by clicking the cards themselves (table_view.js); these buttons confirm it.
  const discardKind = has(legal, "draw", "discard");
  const patKind = has(legal, "stand_pat");
  if (discardKind) {
    const n = ui.selected ? ui.selected.size : 0;
    const over = n > legal.maxDiscards;
    buttons.push(btn(discardKind, "btn-raise", [n ? t("action.discard_n", { count: n }) : t("action.discard"), " ", key("D")],
      () => send(discardKind, { cards: [...(ui.selected || [])] }), { dataKey: "d", disabled: over || n === 0 || n < legal.minDiscards }));
    sizing.push(h("div", { key: "hint", class: "draw-hint", "data-testid": "draw-hint" },
      over ? t("draw.at_most", { count: legal.maxDiscards })
        : t("draw.hint", { count: legal.maxDiscards })));
  }
  if (patKind || discardKind) {
    buttons.push(btn("stand_pat", "btn-check", [t("action.stand_pat"), " ", key("P")],
      () => (patKind ? send(patKind) : send(discardKind, { cards: [] })), { dataKey: "p" }));
  }

  // R-SPLIT: 32 Card Draw split-pot agreement; R-RIT: run it twice.
  if (legal.kinds.includes("agree_split")) {
    buttons.push(btn("agree_split", "btn-split", t("action.split_pot"), () => send("agree_split"),
      { title: t("action.split_pot_title") }));
  }
  if (legal.kinds.includes("decline_split")) buttons.push(btn("decline_split", "btn-check", t("action.no_split"), () => send("decline_split")));
  if (legal.kinds.includes("run_twice")) {
    buttons.push(btn("run_twice", "btn-raise", t("action.run_twice"), () => send("run_twice"),
      { title: t("action.run_twice_title") }));
  }
  if (legal.kinds.includes("run_once")) buttons.push(btn("run_once", "btn-check", t("action.run_once"), () => send("run_once")));

  // Anything else the server offers still gets a button, so no legal option is ever unreachable.
  const known = new Set(["fold", "check", "call", "bet", "raise", "complete", "bring_in", "bringin", "discard", "draw", "straddle",
    "stand_pat", "agree_split", "decline_split", "run_twice", "run_once"]);
  for (const k of legal.kinds) if (!known.has(k)) buttons.push(btn(k, "", k.replace(/_/g, " "), () => send(k)));  // an unknown server action: its own name

  return h("fieldset", { key: "decision", class: "action-decision", "data-testid": "decision", disabled: locked },
    h("div", { key: "buttons", class: "action-buttons" }, buttons),
    sizing.length ? h("div", { key: "sizing", class: "action-sizing" }, sizing) : null);
}

/** Global keyboard shortcuts for the action bar; ignored while typing in a text field. */
export function handleShortcut(ev, root) {
  const target = ev.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return false;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
  const keyMap = { f: ["fold"], c: ["check", "call"], k: ["check", "call"], r: ["raise", "bet"], b: ["bet", "raise"], d: ["draw", "discard"], p: ["stand_pat"] };
  const wanted = keyMap[String(ev.key || "").toLowerCase()];
  if (!wanted) return false;
  for (const action of wanted) {
    const button = root.querySelector(`.action-bar button[data-action="${action}"]:enabled`);
    if (button) { ev.preventDefault(); button.click(); return true; }
  }
  return false;
}
