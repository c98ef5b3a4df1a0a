package dev.tidings.web;

/**
 * The JSON body of an error answer a route writes itself ({@code {"error": ..., "detail": ...}}); a
 * refusal that names a field gets {@code field} too, from {@link ErrorMapping}.
 */
public record ErrorBody(String error, String detail) {}
