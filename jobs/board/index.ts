// The board use case: what the rest of settle may use of it. Its other files are its own.
export { BOARD_SORTS, companiesByName, readBoard, type BoardNames, type BoardSort } from './board.js';
