// What the Train view's method panels say for the preset that ran: an all-real run has no world
// model to fuse, calibrate or measure, a world-model-only run has no anchors, an ablation turns a
// correction off, and the two calibrators refit on different rules. Empty charts without a word
// read as a broken page; these sentences say why a panel is empty or what its curve is.
import type { TrainerConfig } from '../../training/trainer.ts';
import { gateOf } from '../../training/trainer.ts';

export interface PanelPlan {
  streams: 'all-real' | 'world-model-only' | 'mixed';
  /** In place of the fusion, error and calibration charts when the run has nothing for them. */
  note: string | null;
  fusionCaption: string;
  calibrationCaption: string;
  /** The gate before the world model, by name, or null without one. */
  gate: string | null;
}

type PanelConfig = Pick<TrainerConfig, 'rho' | 'debias' | 'fusion' | 'binnedCalibrator' | 'wmGate' | 'staticCheck' | 'anchorsOnly'>;

export function panelPlan(c: PanelConfig, pairs: number): PanelPlan {
  const gate = gateOf(c);
  const gateName = gate === 'verifier' ? 'the static verifier' : gate === 'compile' ? 'the compile gate' : null;
  if (c.rho >= 1) {
    return {
      streams: 'all-real', gate: gateName,
      note: 'All-real GRPO: every program runs in the sandbox and the world model is never asked, so there is no fusion, world-model error or calibration to show. This run is the compute and score every other preset is compared with.',
      fusionCaption: '', calibrationCaption: '',
    };
  }
  if (c.anchorsOnly) {
    return {
      streams: 'all-real', gate: gateName,
      note: 'Anchors only: each step keeps the anchor groups a WMRL run would execute and drops the rest unsampled; the world model is never asked, so there is no fusion, world-model error or calibration to show. Set against WMRL, it says what the world model\'s scores add.',
      fusionCaption: '', calibrationCaption: '',
    };
  }
  if (c.rho <= 0) {
    return {
      streams: 'world-model-only', gate: gateName,
      note: 'World model only: no program runs during training, so there are no anchors. The world model\'s error cannot be measured on them, and nothing calibrates or reweights its rewards: the policy trains on the raw scores.',
      fusionCaption: '', calibrationCaption: '',
    };
  }
  const fusionCaption =
    c.fusion === 'none' ? 'Denoising is off in this preset (fusion none): every group counts with weight 1; the line is the anchor groups\' share of the update.'
    : c.fusion === 'anchor-weight' ? 'The authors\' anchor weight w (1 before warm-up, about 2 after, at most 4) and the anchor groups\' share of the update.'
    : c.fusion === 'ppi' ? 'PPI++: the λ that scales the world-model stream, and the anchor groups\' share of the update.'
    : 'Our inverse-variance stream weights w_A and w_W, and the anchor groups\' share of the update.';
  const b = c.binnedCalibrator;
  const calibrationCaption =
    !c.debias ? `Debiasing is off in this preset: world-model rewards are the raw scores s. The fit on ${pairs} anchor pairs is drawn for reference only.`
    : b ? `The authors' binned calibrator (${b.bins} bins): the identity until ${b.minPairs} anchor pairs, then refit every ${b.refitEvery} new pairs; ${pairs} pairs so far.`
    : `Our isotonic calibrator (PAVA over every anchor pair, refit every step) after ${pairs} anchor pairs.`;
  return { streams: 'mixed', note: null, fusionCaption, calibrationCaption, gate: gateName };
}
