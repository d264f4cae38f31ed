// Sounds made with WebAudio (no audio files): a move, a capture, "your turn" and a low-time
// warning. Muting is kept in localStorage. Every sound played is also announced as a
// "qipan-sound" event on window (detail: its name), whether muted or not.
const MUTE_KEY = "qipan.mute";

let context = null;

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    context = new Context();
  } catch {
    return null;
  }
  return context;
}

// Browsers start audio only after the page was used: wake the context on the first gesture.
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => audio()?.resume?.().catch(() => {}), { capture: true, passive: true });
}

export function muted() {
  return localStorage.getItem(MUTE_KEY) === "1";
}

export function setMuted(value) {
  localStorage.setItem(MUTE_KEY, value ? "1" : "0");
}

/** One tone: ``freq`` Hz (sliding to ``to``), starting ``at`` seconds from now, ``len`` long. */
function tone(ctx, { freq, to = freq, at = 0, len = 0.12, gain = 0.2, type = "sine" }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, start + len);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + len);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + len + 0.02);
}

/** A short knock: filtered noise, like a piece set down on wood. */
function knock(ctx, { at = 0, len = 0.07, freq = 1800, gain = 0.5 }) {
  const start = ctx.currentTime + at;
  const frames = Math.ceil(ctx.sampleRate * len);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const amp = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = 1.2;
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(start);
}

const SOUNDS = {
  move: (ctx) => {
    knock(ctx, {});
    tone(ctx, { freq: 190, to: 120, len: 0.08, gain: 0.12 });
  },
  capture: (ctx) => {
    knock(ctx, { freq: 1200, gain: 0.6 });
    knock(ctx, { at: 0.09, freq: 2400, gain: 0.35 });
    tone(ctx, { freq: 140, to: 70, len: 0.2, gain: 0.18 });
  },
  turn: (ctx) => {
    tone(ctx, { freq: 660, len: 0.14, gain: 0.12 });
    tone(ctx, { freq: 880, at: 0.12, len: 0.22, gain: 0.12 });
  },
  lowtime: (ctx) => {
    for (let i = 0; i < 3; i++) tone(ctx, { freq: 1000, at: i * 0.16, len: 0.09, gain: 0.1, type: "square" });
  },
};

/** Play ``name`` (move, capture, turn or lowtime) unless muted. */
export function play(name) {
  window.dispatchEvent(new CustomEvent("qipan-sound", { detail: name }));
  if (muted() || !(name in SOUNDS)) return;
  const ctx = audio();
  if (!ctx || ctx.state !== "running") return; // not allowed yet: the page has not been used
  try {
    SOUNDS[name](ctx);
  } catch {
    // a sound is never worth an error
  }
}
