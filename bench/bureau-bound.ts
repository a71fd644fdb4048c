// The latency bound of a bureau night (docs/performance.md, "The bureau row"), with the inputs
// it was computed from, so a row shows which term binds and why:
//   bound = max( R × L ÷ (N × C),  R ÷ Q )
// R requests the bank answered in the night (429s included), L its latency, N instances, C the
// bank client's concurrency per instance, Q the subscription's rate limit per second.
export interface BoundInputs {
  requests: number;
  latencyMs: number;
  instances: number;
  concurrency: number;
  ratePerSecond: number;
}

export interface Bound {
  ms: number;
  /** R × L ÷ (N × C): the requests' waiting spread over every instance's connections. */
  latencyMs: number;
  /** R ÷ Q: the rate limit's minimum spacing of R requests. */
  rateMs: number;
  binds: 'latency' | 'rate limit';
}

export function latencyBound(i: BoundInputs): Bound {
  const latencyMs = (i.requests * i.latencyMs) / (i.instances * i.concurrency);
  const rateMs = (i.requests / i.ratePerSecond) * 1000;
  return { ms: Math.max(latencyMs, rateMs), latencyMs, rateMs, binds: latencyMs >= rateMs ? 'latency' : 'rate limit' };
}

/** "R 161 (0 answered 429), L 50 ms, N 2, C 4, Q 100/s: R×L÷(N×C) 1.0 s, R÷Q 1.6 s; the rate limit binds". */
export function describeBound(i: BoundInputs, refused: number): string {
  const b = latencyBound(i);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `R ${i.requests} (${refused} answered 429), L ${i.latencyMs} ms, N ${i.instances}, C ${i.concurrency}, Q ${i.ratePerSecond}/s: ` +
    `R×L÷(N×C) ${s(b.latencyMs)}, R÷Q ${s(b.rateMs)}; the ${b.binds} binds`
  );
}
