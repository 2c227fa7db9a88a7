// Transformer configuration: a GPT-2 style decoder (pre-LayerNorm, causal multi-head attention,
// tanh-GELU MLP, learned positions, tied input/output embeddings) plus a scalar score head.

export interface ModelConfig {
  /** Vocabulary size; must equal the tokenizer's. */
  vocabSize: number;
  /** Maximum sequence length (number of learned positions). */
  contextLength: number;
  /** Width of the residual stream. */
  dModel: number;
  nLayers: number;
  nHeads: number;
  /** Hidden width of the MLP is mlpRatio * dModel. */
  mlpRatio: number;
  layerNormEps: number;
}

export type ConfigName = 'tiny' | 'mini' | 'small' | 'medium' | 'base';

const NAMED: Record<ConfigName, Omit<ModelConfig, 'vocabSize'> & { defaultVocab: number }> = {
  // For tests: small enough for finite differences.
  tiny: { contextLength: 16, dModel: 16, nLayers: 2, nHeads: 2, mlpRatio: 4, layerNormEps: 1e-5, defaultVocab: 32 },
  // For quick end-to-end runs on a CPU.
  mini: { contextLength: 128, dModel: 64, nLayers: 2, nHeads: 2, mlpRatio: 4, layerNormEps: 1e-5, defaultVocab: 512 },
  // ~1M parameters.
  small: { contextLength: 256, dModel: 128, nLayers: 4, nHeads: 4, mlpRatio: 4, layerNormEps: 1e-5, defaultVocab: 1024 },
  // ~3M parameters: the larger SFT-only policy of claim 4 (method.md 5), trainable on 2 cores in about an hour.
  medium: { contextLength: 256, dModel: 192, nLayers: 6, nHeads: 6, mlpRatio: 4, layerNormEps: 1e-5, defaultVocab: 1024 },
  // ~5M parameters.
  base: { contextLength: 256, dModel: 256, nLayers: 6, nHeads: 8, mlpRatio: 4, layerNormEps: 1e-5, defaultVocab: 1024 },
};

export const CONFIG_NAMES: readonly ConfigName[] = ['tiny', 'mini', 'small', 'medium', 'base'];

/** A named configuration; the vocabulary size normally comes from the trained tokenizer. */
export function namedConfig(name: ConfigName, overrides: Partial<ModelConfig> = {}): ModelConfig {
  const base = NAMED[name];
  if (!base) throw new Error(`unknown model configuration '${String(name)}' (known: ${CONFIG_NAMES.join(', ')})`);
  const { defaultVocab, ...rest } = base;
  const config: ModelConfig = { ...rest, vocabSize: defaultVocab, ...overrides };
  validateConfig(config);
  return config;
}

export function headDim(config: ModelConfig): number {
  return config.dModel / config.nHeads;
}

export function mlpWidth(config: ModelConfig): number {
  return config.mlpRatio * config.dModel;
}

/** Throws a descriptive error when a configuration (e.g. read from a checkpoint) is unusable. */
export function validateConfig(config: unknown): asserts config is ModelConfig {
  if (typeof config !== 'object' || config === null) throw new Error('model config: not an object');
  const c = config as Record<string, unknown>;
  for (const k of ['vocabSize', 'contextLength', 'dModel', 'nLayers', 'nHeads', 'mlpRatio'] as const) {
    const v = c[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      throw new Error(`model config: ${k} must be a positive integer, got ${String(v)}`);
    }
  }
  if (typeof c.layerNormEps !== 'number' || !(c.layerNormEps > 0)) {
    throw new Error(`model config: layerNormEps must be a positive number, got ${String(c.layerNormEps)}`);
  }
  if ((c.dModel as number) % (c.nHeads as number) !== 0) {
    throw new Error(`model config: dModel ${String(c.dModel)} is not divisible by nHeads ${String(c.nHeads)}`);
  }
}
