// The bare express baseline of the HTTP bench (docs/performance.md): routes that only parse a body
// and echo it, each with the fastest ordinary way to do so, and nothing else. PORT sets the
// port; PROCESSES > 1 runs that many processes with node:cluster, so the baseline gets as many
// cores as kurel has workers. The parsers load on first use, so the idle memory is express's.
//   POST /json     express.json() and echo
//   POST /js-yaml  the body parsed with js-yaml `load` (the fastest maintained YAML parser) and echoed
//   POST /yaml     the body parsed with `yaml` (the parser kurel uses) and echoed
//   GET  /healthz  200
import cluster from 'node:cluster';
import express from 'express';

const processes = Number(process.env.PROCESSES ?? 1);

if (processes > 1 && cluster.isPrimary) {
  for (let i = 0; i < processes; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  let jsYamlLoad;
  let yamlParse;
  const app = express();
  const text = express.text({ type: () => true, limit: '1mb' });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.post('/json', express.json({ limit: '1mb' }), (req, res) => {
    res.json(req.body);
  });
  app.post('/js-yaml', text, async (req, res) => {
    jsYamlLoad ??= (await import('js-yaml')).load;
    res.json(jsYamlLoad(req.body));
  });
  app.post('/yaml', text, async (req, res) => {
    yamlParse ??= (await import('yaml')).parse;
    res.json(yamlParse(req.body));
  });
  const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
