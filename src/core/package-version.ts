/** kurel's version; the build checks it matches package.json. */
export const VERSION = '0.1.0';
