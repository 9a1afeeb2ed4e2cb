// The action bar: exactly the legal options the server offers for this decision, never more.
// Bet/raise amounts are bounded by the engine's min and max (slider + amount box), pot-size shortcuts appear
// only where the structure lets the player choose the size (PL, HPL, NL), and Fixed Limit shows a single
// fixed-amount button. Draw decisions show Discard / Stand pat; 32 Card Draw adds the split-pot button (R-SPLIT),
// all-in Hold'em spots add the run-it-twice choice (R-RIT). Keyboard: F fold, C/K check or call, B/R bet or raise,
// D discard, P stand pat, Enter in the amount box confirms.

import { el, formatMoney, parseMoney } from "./util.js";
import { potRaiseTo } from "./table_model.js";

const has = (legal, ...kinds) => kinds.find((k) => legal.kinds.includes(k));

/** A signature of the decision, so the bar is rebuilt only when the decision changes (keeps typing focus). */
export function decisionKey(model) {
  const l = model && model.legal;
  if (!l) return `none|${model ? model.heroSeat : ""}|${model ? model.toAct : ""}|${model && model.hero ? model.hero.sittingOut : ""}`;
  return [model.handId, model.street, l.kinds.join(","), l.callAmount, l.minTo, l.maxTo, model.potTotal].join("|");
}

export function renderActionBar(model, ui) {
  const legal = model.legal;
  const currency = model.currency;
  const money = (v) => formatMoney(v, currency);
  const bar = el("div", { class: "action-bar", role: "toolbar", "aria-label": "Actions" });
  if (!legal) {
    const hero = model.hero;
    let text = "Waiting for other players";
    if (!hero) text = "Choose a free seat to play";
    else if (model.toAct !== null && model.toAct !== undefined && model.seats[model.toAct] && !model.seats[model.toAct].empty)
      text = `Waiting for ${model.seats[model.toAct].alias}`;
    bar.append(el("div", { class: "action-wait", "data-testid": "action-wait" }, text));
    return bar;
  }

  const buttons = el("div", { class: "action-buttons" });
  const sizing = el("div", { class: "action-sizing" });
  // One action per decision: the first click (or key, or Enter) locks the whole bar until the next decision
  // rebuilds it (TableView clears ui.state.sent when the decision changes). A refused or lost command unlocks
  // it again so the player can still act. ui.state.sent holds a token per send, so a late refusal of an
  // earlier decision's command never unlocks a later one.
  const controls = () => [...bar.querySelectorAll("button, input")];
  const lock = () => {
    bar.classList.add("action-sent");
    bar.setAttribute("aria-busy", "true");
    for (const c of controls()) {
      if (!c.disabled) { c.disabled = true; c.dataset.locked = "1"; }
    }
  };
  const unlock = () => {
    bar.classList.remove("action-sent");
    bar.removeAttribute("aria-busy");
    for (const c of controls()) {
      if (c.dataset.locked) { c.disabled = false; delete c.dataset.locked; }
    }
  };
  ui.state.unlockBar = unlock;  // the bar on screen (a card click re-renders it within the same decision)
  const send = (kind, extra = {}) => {
    if (ui.state.sent) return;
    const token = {};
    ui.state.sent = token;
    lock();
    const failed = () => {
      if (ui.state.sent !== token) return;
      ui.state.sent = false;
      if (ui.state.unlockBar) ui.state.unlockBar();
    };
    Promise.resolve(ui.act(kind, extra)).then((reply) => {
      if (reply === null || reply === undefined || reply.type === "timeout" || reply.type === "error") failed();
    }, failed);
  };

  const key = (k) => el("kbd", {}, k);

  const foldKind = has(legal, "fold");
  if (foldKind) {
    buttons.append(el("button", { class: "btn btn-fold", "data-action": "fold", "data-key": "f", onclick: () => send("fold") },
      "Fold ", key("F")));
  }
  const checkKind = has(legal, "check");
  if (checkKind) {
    buttons.append(el("button", { class: "btn btn-check", "data-action": "check", "data-key": "c", onclick: () => send("check") },
      "Check ", key("C")));
  }
  const callKind = has(legal, "call");
  if (callKind) {
    buttons.append(el("button", { class: "btn btn-call", "data-action": "call", "data-key": "c", onclick: () => send("call") },
      `Call ${money(legal.callAmount)} `, key("C")));
  }
  const bringInKind = has(legal, "bring_in", "bringin");
  if (bringInKind) {
    const amount = legal.bringIn ?? model.stakes.bringIn;
    buttons.append(el("button", { class: "btn btn-call", "data-action": bringInKind, onclick: () => send(bringInKind, amount ? { amount } : {}) },
      `Bring in${amount ? " " + money(amount) : ""}`));
  }
  const completeKind = has(legal, "complete");
  if (completeKind) {
    const amount = legal.completeTo ?? legal.minTo;
    buttons.append(el("button", { class: "btn btn-raise", "data-action": "complete", onclick: () => send("complete", amount ? { amount } : {}) },
      `Complete${amount ? " to " + money(amount) : ""}`));
  }

  // R-STRADDLE: a voluntary blind raise before the cards, at the amount the engine allows.
  if (legal.kinds.includes("straddle")) {
    const amount = legal.minTo;
    buttons.append(el("button", { class: "btn btn-raise", "data-action": "straddle", onclick: () => send("straddle", { amount }) },
      `Straddle ${money(amount)}`));
  }

  const betKind = has(legal, "bet", "raise");
  if (betKind && legal.minTo !== null && legal.maxTo !== null) {
    const verb = betKind === "bet" ? "Bet" : "Raise to";
    const fixed = legal.minTo === legal.maxTo;
    let amount = ui.state.amount !== undefined && ui.state.amount >= legal.minTo && ui.state.amount <= legal.maxTo
      ? ui.state.amount : legal.minTo;
    const betButton = el("button", { class: "btn btn-raise", "data-action": betKind, "data-key": "r" });
    const label = () => {
      const allIn = model.hero && amount >= legal.maxTo && legal.maxTo >= model.hero.stack + model.hero.bet;
      betButton.replaceChildren(`${verb} ${money(amount)}${allIn ? " (all-in)" : ""} `, key(betKind === "bet" ? "B" : "R"));
    };
    const setAmount = (value, from) => {
      amount = Math.max(legal.minTo, Math.min(legal.maxTo, Math.trunc(value)));
      ui.state.amount = amount;
      if (from !== "slider") slider.value = String(amount);
      if (from !== "box") box.value = formatMoney(amount, currency).replace(/[€$£,]/g, "");
      box.classList.remove("invalid");
      label();
    };
    betButton.addEventListener("click", () => send(betKind, { amount }));
    label();
    buttons.append(betButton);

    const slider = el("input", {
      type: "range", class: "bet-slider", min: legal.minTo, max: legal.maxTo, step: 1, value: amount,
      "aria-label": "Bet amount", "data-testid": "bet-slider",
    });
    const box = el("input", {
      type: "text", inputmode: "decimal", class: "bet-amount", "aria-label": "Bet amount",
      "data-testid": "bet-amount", value: formatMoney(amount, currency).replace(/[€$£,]/g, ""),
    });
    slider.addEventListener("input", () => setAmount(Number(slider.value), "slider"));
    box.addEventListener("input", () => {
      const parsed = parseMoney(box.value, currency);
      if (parsed === null || parsed < legal.minTo || parsed > legal.maxTo) {
        box.classList.add("invalid");
        box.title = `Between ${money(legal.minTo)} and ${money(legal.maxTo)}`;
        return;
      }
      setAmount(parsed, "box");
    });
    // An out-of-range or malformed entry changes nothing: the box goes back to the last valid amount.
    const inRange = (v) => v !== null && v >= legal.minTo && v <= legal.maxTo;
    box.addEventListener("change", () => {
      const parsed = parseMoney(box.value, currency);
      setAmount(inRange(parsed) ? parsed : amount, "change");
    });
    box.addEventListener("keydown", (ev) => {
      if (ev.key !== "Enter") return;
      ev.preventDefault();
      const parsed = parseMoney(box.value, currency);
      if (!inRange(parsed)) { setAmount(amount, "change"); return; }
      setAmount(parsed, "enter");
      send(betKind, { amount });
    });
    if (!fixed) {
      const shortcuts = el("div", { class: "pot-shortcuts" });
      const add = (text, value, name) => {
        if (value === null) return;
        shortcuts.append(el("button", { class: "btn btn-small", "data-shortcut": name, onclick: () => setAmount(value, "shortcut") }, text));
      };
      add("Min", legal.minTo, "min");
      if (model.sizeable && model.structure !== "SL") {
        add("½ Pot", potRaiseTo(model, 0.5), "half");
        if (model.structure !== "HPL") {
          add("¾ Pot", potRaiseTo(model, 0.75), "three-quarters");
          add("Pot", potRaiseTo(model, 1), "pot");
        }
      }
      add(model.structure === "NL" ? "All-in" : "Max", legal.maxTo, "max");
      sizing.append(shortcuts, el("div", { class: "slider-row" }, slider, box));
    }
  }

  // Draw: the selection is made by clicking the cards themselves (table_view.js); these buttons confirm it.
  const discardKind = has(legal, "draw", "discard");
  const patKind = has(legal, "stand_pat");
  if (discardKind) {
    const n = ui.state.selected ? ui.state.selected.size : 0;
    const over = n > legal.maxDiscards;
    buttons.append(el("button", {
      class: "btn btn-raise", "data-action": discardKind, "data-key": "d", disabled: over || n === 0 || n < legal.minDiscards,
      onclick: () => send(discardKind, { cards: [...(ui.state.selected || [])] }),
    }, n ? `Discard ${n} ` : "Discard ", key("D")));
    sizing.append(el("div", { class: "draw-hint", "data-testid": "draw-hint" },
      over ? `You may discard at most ${legal.maxDiscards} cards.`
        : `Click the cards you want to exchange (up to ${legal.maxDiscards}), then press Discard.`));
  }
  if (patKind || discardKind) {
    buttons.append(el("button", {
      class: "btn btn-check", "data-action": "stand_pat", "data-key": "p",
      onclick: () => (patKind ? send(patKind) : send(discardKind, { cards: [] })),
    }, "Stand pat ", key("P")));
  }

  // R-SPLIT: 32 Card Draw split-pot agreement; R-RIT: run it twice.
  if (legal.kinds.includes("agree_split")) {
    buttons.append(el("button", { class: "btn btn-split", "data-action": "agree_split", onclick: () => send("agree_split"),
      title: "Offer to divide the pot equally among all active players (R-SPLIT)" }, "Split pot"));
  }
  if (legal.kinds.includes("decline_split")) {
    buttons.append(el("button", { class: "btn btn-check", "data-action": "decline_split", onclick: () => send("decline_split") }, "Don't split"));
  }
  if (legal.kinds.includes("run_twice")) {
    buttons.append(el("button", { class: "btn btn-raise", "data-action": "run_twice", onclick: () => send("run_twice"),
      title: "Deal the rest of the board twice; each run wins half of each pot (R-RIT)" }, "Run it twice"));
  }
  if (legal.kinds.includes("run_once")) {
    buttons.append(el("button", { class: "btn btn-check", "data-action": "run_once", onclick: () => send("run_once") }, "Run once"));
  }

  // Anything else the server offers still gets a button, so no legal option is ever unreachable.
  const known = new Set(["fold", "check", "call", "bet", "raise", "complete", "bring_in", "bringin", "discard", "draw", "straddle",
    "stand_pat", "agree_split", "decline_split", "run_twice", "run_once"]);
  for (const k of legal.kinds) {
    if (!known.has(k)) buttons.append(el("button", { class: "btn", "data-action": k, onclick: () => send(k) }, k.replace(/_/g, " ")));
  }

  bar.append(buttons);
  if (sizing.childNodes.length) bar.append(sizing);
  if (ui.state.sent) lock();  // re-rendered (e.g. a card clicked) after this decision's action was sent
  return bar;
}

/** Global keyboard shortcuts for the action bar; ignored while typing in a text field. */
export function handleShortcut(ev, root) {
  const target = ev.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return false;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
  const keyMap = { f: ["fold"], c: ["check", "call"], k: ["check", "call"], r: ["raise", "bet"], b: ["bet", "raise"], d: ["draw", "discard"], p: ["stand_pat"] };
  const wanted = keyMap[ev.key.toLowerCase()];
  if (!wanted) return false;
  for (const action of wanted) {
    const button = root.querySelector(`.action-bar button[data-action="${action}"]:not([disabled])`);
    if (button) { ev.preventDefault(); button.click(); return true; }
  }
  return false;
}
