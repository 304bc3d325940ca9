// The Generate stepper's logic: a decoder over the state on screen (web/model/compute/decode.js),
// the steps taken so far, and Play's timer. When the state changes the decoder is rebuilt and the
// same number of steps replayed, so the panel stays at step t with the new numbers.
import { createDecoder, decodeBlocker } from '../../../model/compute/decode.js';
import { t } from '../../../i18n/index.js';

// One token per 0.8 s: slow enough to read the new row of weights as it appears.
const PLAY_INTERVAL_MS = 800;

/**
 * onChange(stepper) after every step, reset or Play/Pause; lang: the language of the blocker's words.
 * -> { blocker, steps, T, playing, observe(state, result), step(), reset(), play(), pause() }
 */
export function createStepper(attn, onChange, { reducedMotion = () => false, lang = 'en' } = {}) {
  let decoder = null;
  let timer = 0;

  const stepper = {
    blocker: null,
    steps: [],
    T: 0,
    playing: false,
    /** The state on screen and its full forward: rebuild the decoder and replay the steps taken. */
    observe(state, result) {
      decoder?.dispose();
      decoder = null;
      const taken = stepper.steps.length;
      stepper.steps = [];
      stepper.blocker = result ? decodeBlocker(state, lang) : t(lang, 'generate.failed');
      if (stepper.blocker) {
        stepper.pause();
        stepper.T = 0;
        return;
      }
      decoder = createDecoder(attn, state, result);
      stepper.T = decoder.T;
      while (stepper.steps.length < Math.min(taken, decoder.T)) stepper.steps.push(decoder.step());
    },
    step() {
      if (!decoder || decoder.length >= decoder.T) return null;
      const record = decoder.step();
      stepper.steps.push(record);
      if (decoder.length >= decoder.T) stepper.pause();
      onChange(stepper);
      return record;
    },
    reset() {
      stepper.pause();
      decoder?.reset();
      stepper.steps = [];
      onChange(stepper);
    },
    play() {
      if (!decoder) return;
      if (decoder.length >= decoder.T) stepper.reset();
      // Reduced motion: no tokens arriving on a timer; Play goes straight to the last step.
      if (reducedMotion()) {
        while (decoder.length < decoder.T) stepper.steps.push(decoder.step());
        onChange(stepper);
        return;
      }
      stepper.playing = true;
      clearInterval(timer);
      timer = setInterval(() => stepper.step(), PLAY_INTERVAL_MS);
      stepper.step();
    },
    pause() {
      const was = stepper.playing;
      stepper.playing = false;
      clearInterval(timer);
      timer = 0;
      if (was) onChange(stepper);
    },
  };
  return stepper;
}
