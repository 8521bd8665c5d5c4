// Type-checks the instance-wide pieces of pkg/index.d.ts: limits, the fatal hook, A2A resume options.
import { A2AClient, type AdkError, getLimits, type Limits, onFatal, setLimits } from '../../pkg/index.js';

const limits: Limits = setLimits({ maxToolResultBytes: 1 << 20 });
const event: number = getLimits().maxEventBytes + limits.maxSessionBytes;
// @ts-expect-error: limits are numbers of bytes
setLimits({ maxEventBytes: '16 MiB' });

const unsubscribe: () => void = onFatal((error: AdkError) => {
  const code: 'FAILED_PRECONDITION' | string = error.code;
  const wait: number | undefined = error.retryAfterMs;
  console.log(code, wait, event);
});
unsubscribe();

export async function resume(url: string): Promise<void> {
  await A2AClient.fromCardUrl(url, { resume: { maxRetries: 3, maxTotalRetries: 10, backoffBaseMs: 500, maxBackoffMs: 30_000 } });
}
