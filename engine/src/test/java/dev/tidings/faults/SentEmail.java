package dev.tidings.faults;

import java.util.List;

/**
 * One email as the SMTP server received it: its recipient, its {@code X-Tidings-Message-Id} and the
 * paths of its open-time slot images.
 */
record SentEmail(String to, String messageId, List<String> slotPaths) {}
