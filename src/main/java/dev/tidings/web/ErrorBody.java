package dev.tidings.web;

/** The JSON body of every error answer (CONTRACT.md). */
public record ErrorBody(String error, String detail) {}
