// The modules of prom-client that metrics.ts loads one by one (see there), typed as the package's
// index types them: each file exports one class, or the default metrics' function.
declare module 'prom-client/lib/registry.js' {
  import { Registry } from 'prom-client';
  export default Registry;
}
declare module 'prom-client/lib/counter.js' {
  import { Counter } from 'prom-client';
  export default Counter;
}
declare module 'prom-client/lib/gauge.js' {
  import { Gauge } from 'prom-client';
  export default Gauge;
}
declare module 'prom-client/lib/histogram.js' {
  import { Histogram } from 'prom-client';
  export default Histogram;
}
declare module 'prom-client/lib/cluster.js' {
  import { AggregatorRegistry } from 'prom-client';
  export default AggregatorRegistry;
}
declare module 'prom-client/lib/defaultMetrics.js' {
  import { collectDefaultMetrics } from 'prom-client';
  export default collectDefaultMetrics;
}
