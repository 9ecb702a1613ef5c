// The scraper: a worker thread, so that reading and parsing the exposition never runs on the main thread, whose
// time per scrape is what the benchmark measures (the main thread plays the job that is scraped).
// A message { url } scrapes once and answers { bytes, ms }.
import { request } from 'node:http';
import { parentPort } from 'node:worker_threads';

/** GETs `url`; resolves with the size of the body in bytes. */
function get(url) {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve(bytes));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

parentPort.on('message', async ({ url }) => {
  const start = performance.now();
  const bytes = await get(url);
  parentPort.postMessage({ bytes, ms: performance.now() - start });
});
