import type { Publisher } from '@newsroom/domain';

/** A publisher as the API shows it: `disabled` spelled out next to `disabledAt`. */
export function toPublisherBody<P extends Publisher>(publisher: P): P & { disabled: boolean } {
  return { ...publisher, disabled: publisher.disabledAt !== null };
}
