// A small builder for ONNX graphs made of plain onnx-proto objects: named values, nodes with typed
// attributes, float/int64 initializers, and graph inputs/outputs with symbolic dimensions.
// It only records what it is told; the graphs themselves (forward and hand-derived backward) live in
// the files that use it.

import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
type TensorProto = onnxProto.onnx.ITensorProto;
type NodeProto = onnxProto.onnx.INodeProto;
type ValueInfo = onnxProto.onnx.IValueInfoProto;
type AttributeProto = onnxProto.onnx.IAttributeProto;

/** ONNX element types used here (TensorProto.DataType). */
export const DType = { float: 1, int32: 6, int64: 7, bool: 9 } as const;
export type DTypeName = keyof typeof DType;

/** A dimension: a fixed size or a symbolic name such as 'B'. */
export type Dim = number | string;

export type AttrValue = number | number[] | string | { float: number } | { floats: number[] } | { tensor: TensorProto };

export const OPSET = 17;
export const IR_VERSION = 8;

function attribute(name: string, value: AttrValue): AttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`attribute ${name}: use { float } for non-integer ${value}`);
    return { name, type: T.INT, i: value };
  }
  if (typeof value === 'string') return { name, type: T.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: T.INTS, ints: value };
  if ('float' in value) return { name, type: T.FLOAT, f: value.float };
  if ('floats' in value) return { name, type: T.FLOATS, floats: value.floats };
  return { name, type: T.TENSOR, t: value.tensor };
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  // A copy, so a later change of the caller's array cannot alter the exported model.
  return new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength));
}

export function floatTensor(name: string, dims: number[], data: Float32Array): TensorProto {
  const n = dims.reduce((a, b) => a * b, 1);
  if (n !== data.length) throw new Error(`tensor ${name}: ${data.length} values for shape [${dims.join(', ')}]`);
  return { name, dims, dataType: DType.float, rawData: bytesOf(data) };
}

export function int64Tensor(name: string, dims: number[], data: readonly number[]): TensorProto {
  const arr = BigInt64Array.from(data.map((v) => BigInt(v)));
  return { name, dims, dataType: DType.int64, rawData: bytesOf(arr) };
}

export class GraphBuilder {
  private readonly nodes: NodeProto[] = [];
  private readonly initializers: TensorProto[] = [];
  private readonly inputs: ValueInfo[] = [];
  private readonly outputs: ValueInfo[] = [];
  private readonly constants = new Map<string, string>();
  private counter = 0;

  constructor(readonly name: string) {}

  /** A fresh value name with a readable prefix. */
  fresh(prefix: string): string {
    return `${prefix}__${this.counter++}`;
  }

  /** Adds one node; returns its single output's name (or the first of several). */
  op(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outputs: string | string[] = this.fresh(opType)): string {
    const outs = Array.isArray(outputs) ? outputs : [outputs];
    this.nodes.push({
      opType,
      name: this.fresh(`n_${opType}`),
      input: inputs,
      output: outs,
      attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    });
    return outs[0];
  }

  /** Adds a node with several outputs. */
  ops(opType: string, inputs: string[], outputs: string[], attrs: Record<string, AttrValue> = {}): string[] {
    this.op(opType, inputs, attrs, outputs);
    return outputs;
  }

  initializer(t: TensorProto): string {
    if (!t.name) throw new Error('initializer without a name');
    this.initializers.push(t);
    return t.name;
  }

  /** A shared int64 constant (shapes, axes, indices), stored once as an initializer. */
  i64(values: readonly number[], scalar = false): string {
    const key = `i64:${scalar ? 's' : 'v'}:${values.join(',')}`;
    let name = this.constants.get(key);
    if (!name) {
      name = this.fresh('const_i64');
      this.initializer(int64Tensor(name, scalar ? [] : [values.length], values));
      this.constants.set(key, name);
    }
    return name;
  }

  /** A shared float constant; a scalar unless dims are given. */
  f32(values: readonly number[], dims: number[] = []): string {
    const key = `f32:${dims.join('x')}:${values.join(',')}`;
    let name = this.constants.get(key);
    if (!name) {
      name = this.fresh('const_f32');
      this.initializer(floatTensor(name, dims, Float32Array.from(values)));
      this.constants.set(key, name);
    }
    return name;
  }

  input(name: string, dtype: DTypeName, dims: Dim[]): string {
    this.inputs.push(valueInfo(name, dtype, dims));
    return name;
  }

  /** Declares `value` a graph output under `name` (an Identity node renames it when needed). */
  output(value: string, name: string, dtype: DTypeName, dims: Dim[]): string {
    if (value !== name) this.op('Identity', [value], {}, name);
    this.outputs.push(valueInfo(name, dtype, dims));
    return name;
  }

  /** Serialised ModelProto bytes, ready for InferenceSession.create. */
  encode(docString = ''): Uint8Array {
    const model = {
      irVersion: IR_VERSION,
      producerName: 'wmrl-browser',
      producerVersion: '1',
      docString,
      opsetImport: [{ domain: '', version: OPSET }],
      graph: {
        name: this.name,
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
    };
    return onnx.ModelProto.encode(onnx.ModelProto.fromObject(model)).finish();
  }

  get nodeCount(): number {
    return this.nodes.length;
  }
}

function valueInfo(name: string, dtype: DTypeName, dims: Dim[]): ValueInfo {
  return {
    name,
    type: {
      tensorType: {
        elemType: DType[dtype],
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}
