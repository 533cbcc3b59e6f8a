/** The seed only fills an empty calendar; this says what is already there. */
export class DemoRefusedError extends Error {}
