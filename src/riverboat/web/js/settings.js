// The player's client preferences, kept in localStorage (this browser): deck colours, sounds and alerts, how long
// a hand's result stays on the table, animations. Table options that the server applies (auto-post blinds, sit out
// next big blind, wait for the big blind, auto-muck) are not here: they are sent with the `options` frame.

import { Emitter } from "./util.js";

const KEY = "rb.settings";
export const DEFAULTS = Object.freeze({
  sounds: true,            // a sound when it is your turn and when your time is running out
  alerts: true,            // the tab title and the table switcher flash when it is your turn at another table
  resultsSeconds: 5,       // how long the result of a hand stays readable on the table
  animations: true,        // chip and card animations (CSS only: they never delay the game)
});

class Settings extends Emitter {
  constructor() {
    super();
    this.values = { ...DEFAULTS };
    try { Object.assign(this.values, JSON.parse(localStorage.getItem(KEY) || "{}")); } catch { /* defaults */ }
    this.apply();
  }

  get(name) { return this.values[name]; }

  set(name, value) {
    this.values[name] = value;
    try { localStorage.setItem(KEY, JSON.stringify(this.values)); } catch { /* storage blocked */ }
    this.apply();
    this.emit("change", this.values);
  }

  apply() {
    if (typeof document !== "undefined") document.documentElement.classList.toggle("no-anim", !this.values.animations);
  }
}

export const settings = new Settings();
