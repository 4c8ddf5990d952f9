/** Reason phrases for the HTTP statuses the simulated wire carries (the wire log and the diagrams). */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  499: 'Client Closed Request',
  500: 'Internal Server Error',
};
