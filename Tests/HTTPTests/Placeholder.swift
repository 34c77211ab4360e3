import Testing

