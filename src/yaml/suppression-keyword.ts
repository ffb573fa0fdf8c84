/** The word every suppression comment starts with; a text without it has none (checked first, cheaply). */
export const SUPPRESSION_KEYWORD = 'kurel-disable';
