// What the door hears and feels of an answer: a short tone (Web Audio, no files to load) and a
// vibration where the phone has one (not iOS Safari: the sound is what an iPhone gives).

/** Rising two-note chirp for accept, a low double buzz for reject, a single tick for a sale. */
const SOUNDS = {
  accept: [
    { hz: 880, at: 0, for: 0.07, wave: 'sine' },
    { hz: 1320, at: 0.07, for: 0.1, wave: 'sine' },
  ],
  reject: [
    { hz: 220, at: 0, for: 0.14, wave: 'square' },
    { hz: 220, at: 0.2, for: 0.14, wave: 'square' },
  ],
};

const VIBRATIONS = { accept: 80, reject: [120, 80, 120] };

export class Feedback {
  constructor() {
    this.context = null;
    this.muted = false;
    /** The sounds played, newest last (for the browser test and the menu; at most 20 kept). */
    this.played = [];
  }

  /**
   * Creates or resumes the audio context: browsers allow it only after a tap or a key, so the page
   * calls this from its first user gestures (pairing, choosing the list, any button).
   */
  unlock() {
    const AudioContext = self.AudioContext ?? self.webkitAudioContext;
    if (!AudioContext) return;
    try {
      this.context ??= new AudioContext();
      if (this.context.state === 'suspended') void this.context.resume().catch(() => undefined);
    } catch {
      this.context = null;
    }
  }

  /** Plays `kind` (accept | reject) unless muted, and vibrates where supported. */
  give(kind) {
    this.played.push(kind);
    if (this.played.length > 20) this.played.shift();
    if (navigator.vibrate) {
      try {
        navigator.vibrate(VIBRATIONS[kind] ?? 0);
      } catch {
        // Some browsers refuse vibration without a recent tap: the sound and the banner say it.
      }
    }
    if (this.muted || !this.context || this.context.state !== 'running') return;
    const start = this.context.currentTime + 0.01;
    for (const note of SOUNDS[kind] ?? []) {
      const oscillator = this.context.createOscillator();
      const gain = this.context.createGain();
      oscillator.type = note.wave;
      oscillator.frequency.value = note.hz;
      // A short ramp in and out: no click at the edges.
      gain.gain.setValueAtTime(0.0001, start + note.at);
      gain.gain.exponentialRampToValueAtTime(0.3, start + note.at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + note.at + note.for);
      oscillator.connect(gain).connect(this.context.destination);
      oscillator.start(start + note.at);
      oscillator.stop(start + note.at + note.for + 0.02);
    }
  }
}
