// The decoder's state of each sequence (one per row), kept on the GPU across token steps
// (src/engine/webgpu/decoder.ts), so a step needs nothing from the host:
//   pos    position of the row's input token (the last token of the sequence so far); every row has
//          its own, so prompts of different lengths decode together
//   token  that input token; the sampling kernel writes each new token here (fed back on the GPU)
//   step   tokens sampled so far: the row's uniform and history slot for the next one
//   limit  tokens the row may sample (the new-token budget within the context); set to step when the
//          row samples the stop token
// A row with step >= limit is finished: the sampling kernel leaves it alone; the other kernels still
// run over it, writing only its own rows of q, x and the caches, which nothing reads any more.
struct RowState { pos: u32, token: u32, step: u32, limit: u32 }
