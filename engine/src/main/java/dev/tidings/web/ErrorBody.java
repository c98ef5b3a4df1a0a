package dev.tidings.web;

/** The JSON body of every error answer ({@code {"error": ..., "detail": ...}}). */
public record ErrorBody(String error, String detail) {}
