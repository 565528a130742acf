package org.boxoffice.app.notify;

import com.hazelcast.topic.ITopic;
import org.boxoffice.app.mail.Channel;
import org.boxoffice.app.mail.MailContent;

import java.time.Duration;

/**
 * Notices to a fan's page open on the show: published on the cluster's topic {@value #TOPIC} (the
 * content's text is the notice as JSON), so whichever member holds the page's live stream tells it.
 * A page that is not open misses it; the fan's other channel still tells them.
 */
final class PageChannel implements Channel {

    /** The topic notices for pages travel on; its messages are {@link PageNotice#json} strings. */
    static final String TOPIC = "page-notices";

    private final ITopic<String> topic;

    PageChannel(ITopic<String> topic) {
        this.topic = topic;
    }

    @Override
    public void deliver(String messageId, String recipient, MailContent content) {
        topic.publish(content.text());
    }

    @Override
    public Duration longestDelivery() {
        return Duration.ofSeconds(5);
    }
}
