import { describe, expect, it } from 'vitest';
import { releaseStep } from '../../src/domain/controls/release.js';

describe('releasing a hold', () => {
  it('takes one release where one is needed', () => {
    expect(releaseStep({ releasesNeeded: 1 }, 'kari@x')).toEqual({ kind: 'release' });
  });

  it('takes two different people where two are needed', () => {
    expect(releaseStep({ releasesNeeded: 2 }, 'kari@x')).toEqual({ kind: 'first' });
    expect(releaseStep({ releasesNeeded: 2, firstReleasedPerson: 'kari@x' }, ' KARI@x')).toEqual({
      kind: 'same-person',
      person: 'kari@x',
    });
    expect(releaseStep({ releasesNeeded: 2, firstReleasedPerson: 'kari@x' }, 'ola@x')).toEqual({ kind: 'release' });
  });
});
