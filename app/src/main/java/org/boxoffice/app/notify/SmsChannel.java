package org.boxoffice.app.notify;

import org.boxoffice.app.mail.Channel;
import org.boxoffice.app.mail.MailContent;
import org.boxoffice.domain.PhoneNumber;

import java.time.Duration;

/** Messages by SMS: the content's text (never its subject or attachments) to a phone number. */
final class SmsChannel implements Channel {

    private final SmsProvider provider;

    SmsChannel(SmsProvider provider) {
        this.provider = provider;
    }

    @Override
    public void deliver(String messageId, String recipient, MailContent content) throws SmsProvider.SmsException {
        provider.send(messageId, new PhoneNumber(recipient), content.text());
    }

    @Override
    public Duration longestDelivery() {
        return provider.longestSend();
    }

    @Override
    public String shown(String recipient) {
        return PhoneNumber.mask(recipient);
    }
}
