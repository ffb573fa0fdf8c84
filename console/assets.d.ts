/** The bundler turns an imported stylesheet into the page's CSS file; the import has no value. */
declare module '*.css';
