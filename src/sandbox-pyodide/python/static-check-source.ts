// The free verifier's Python (static_check.py), inlined by vite for the browser. Node reads the file.
import source from './static_check.py?raw';

export const STATIC_CHECK_SOURCE: string = source;
