interface Asked<G, I, R> {
  group: G;
  item: I;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/**
 * Writes asked for within one turn of the event loop, done together: the items of one group (the
 * same database and company, say) go to one call of `run`, which settles each item, or throws when
 * it did nothing (then each item is run alone). An item whose `key` is already in that call waits
 * for the next one, so that one key's items keep their order.
 */
export function sameTick<G, I, R>(opts: {
  sameGroup(a: G, b: G): boolean;
  key(item: I): unknown;
  run(group: G, items: I[]): Promise<PromiseSettledResult<R>[]>;
}): (group: G, item: I) => Promise<R> {
  let waiting: Asked<G, I, R>[] = [];

  /** A call of several that throws did nothing: each item is tried alone, so one's failure stays its own. */
  async function runRound(round: Asked<G, I, R>[]): Promise<void> {
    let outcomes: PromiseSettledResult<R>[];
    try {
      outcomes = await opts.run(
        round[0].group,
        round.map((a) => a.item),
      );
    } catch (err) {
      if (round.length > 1) {
        await Promise.all(round.map((a) => runRound([a])));
        return;
      }
      outcomes = [{ status: 'rejected', reason: err }];
    }
    round.forEach((a, i) => {
      const outcome = outcomes[i];
      if (outcome.status === 'fulfilled') a.resolve(outcome.value);
      else a.reject(outcome.reason);
    });
  }

  async function runInRounds(asked: Asked<G, I, R>[]) {
    let rest = asked;
    while (rest.length) {
      const round: Asked<G, I, R>[] = [];
      const later: Asked<G, I, R>[] = [];
      const keys = new Set<unknown>();
      for (const a of rest) {
        const key = opts.key(a.item);
        if (keys.has(key)) later.push(a);
        else {
          keys.add(key);
          round.push(a);
        }
      }
      await runRound(round);
      rest = later;
    }
  }

  function runWaiting() {
    const asked = waiting;
    waiting = [];
    const groups: Asked<G, I, R>[][] = [];
    for (const a of asked) {
      const group = groups.find((g) => opts.sameGroup(g[0].group, a.group));
      if (group) group.push(a);
      else groups.push([a]);
    }
    for (const group of groups) void runInRounds(group);
  }

  return (group, item) =>
    new Promise<R>((resolve, reject) => {
      if (waiting.length === 0) process.nextTick(runWaiting);
      waiting.push({ group, item, resolve, reject });
    });
}
