// What a serving process loads once it takes requests (docs/service.md "During start"): express,
// its body parsing, and every route that is not answered before express.
export { expressApp } from './app.js';
