// Sounds and alerts: a short chime when it becomes your turn, a tick when your time is running out. Generated with
// Web Audio (no files to load); silent when the player turned sounds off (Account -> Table settings) or the browser
// has not allowed audio yet. Every sound played is also counted in window.riverboat.sounds (tests read it).

import { settings } from "./settings.js";

let ctx = null;
export const played = [];

function audio() {
  if (ctx) return ctx;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try { ctx = new Ctor(); } catch { ctx = null; }
  return ctx;
}

function tone(freq, start, length, gain = 0.08) {
  const ac = audio();
  if (!ac || ac.state === "closed") return;
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  osc.frequency.value = freq;
  amp.gain.value = gain;
  osc.connect(amp).connect(ac.destination);
  const t = ac.currentTime + start;
  amp.gain.setValueAtTime(gain, t);
  amp.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.start(t);
  osc.stop(t + length);
}

/** Play a named sound ("turn", "hurry", "win") unless sounds are off. */
export function play(name) {
  if (!settings.get("sounds")) return false;
  played.push(name);
  try {
    if (name === "turn") { tone(660, 0, 0.12); tone(880, 0.12, 0.18); }
    else if (name === "hurry") tone(990, 0, 0.08, 0.06);
    else if (name === "win") { tone(523, 0, 0.1); tone(659, 0.1, 0.1); tone(784, 0.2, 0.2); }
  } catch { /* audio unavailable: the visual alert still shows */ }
  return true;
}
