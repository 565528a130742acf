package org.boxoffice.app.mail;

import java.util.List;
import java.util.function.Supplier;

/**
 * A written mail. Without attachments it goes out as one plain-text part; with them, as a
 * multipart message with the text first.
 */
public record MailContent(String subject, String text, List<Attachment> attachments) {

    public MailContent {
        attachments = List.copyOf(attachments);
    }

    /** A file to attach; {@code content} is made only when the mail is sent, not when it is only logged. */
    public record Attachment(String fileName, String contentType, Supplier<byte[]> content) {
    }
}
