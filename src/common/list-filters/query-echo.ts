import { QueryPairs, urlWithQuery } from '../pagination/pagination';

type EchoValue = string | number | boolean | ReadonlyArray<string | number | boolean> | null | undefined;

/**
 * The effective parameters of a list, in the order they are added, for `rest_url` and the page
 * links: absent values and empty lists are left out, lists are sent comma-separated.
 */
export class QueryEcho {
  readonly pairs: QueryPairs = [];

  /** The parameters of `query` named in `names`, in that order, as the caller sent them. */
  static of<Q extends object>(query: Q, names: ReadonlyArray<keyof Q & string>): QueryEcho {
    const echo = new QueryEcho();
    for (const name of names) echo.add(name, query[name] as EchoValue);
    return echo;
  }

  add(name: string, value: EchoValue): this {
    if (value === undefined || value === null) return this;
    if (typeof value === 'object') {
      if (value.length > 0) this.pairs.push([name, value.join(',')]);
    } else {
      this.pairs.push([name, String(value)]);
    }
    return this;
  }

  /** The collection URL with these parameters. */
  url(collectionUrl: string): string {
    return urlWithQuery(collectionUrl, this.pairs);
  }
}
