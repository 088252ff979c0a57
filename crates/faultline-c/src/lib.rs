//! C front end: preprocess, parse, check and lower C to faultline's IR
