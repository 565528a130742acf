package org.boxoffice.app.notify;

import org.boxoffice.app.http.Json;
import org.boxoffice.domain.PhoneNumber;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An SMS provider reached over HTTP ({@code boxoffice.sms.provider: http}), one JSON call per message:
 *
 * <pre>
 * POST {boxoffice.sms.http.url}
 * Authorization: Bearer {boxoffice.sms.http.apikey}
 * Idempotency-Key: {messageId}
 * Content-Type: application/json
 *
 * {"messageId": "message-42", "to": "+4915112345678", "text": "..."}
 * </pre>
 *
 * A 2xx answer means accepted; 409 means the provider had accepted that message id already (a retry
 * whose first answer was lost), which is success too. A timeout, a connection failure, 408, 429 and
 * 5xx are tried again up to {@code retries} times within the call, after 250 ms, 500 ms, ...; any
 * other answer, or the last failure, throws, and the outbox tries the message again later with the
 * same id, so the provider delivers it once however often it is sent. Thread-safe.
 */
public final class HttpSmsProvider implements SmsProvider {

    private static final Duration FIRST_BACKOFF = Duration.ofMillis(250);

    private final URI url;
    private final String apiKey;
    private final Duration timeout;
    private final int retries;
    private final HttpClient client;

    public HttpSmsProvider(NotifySettings.SmsSettings settings) {
        this.url = settings.url();
        this.apiKey = settings.apiKey();
        this.timeout = settings.timeout();
        this.retries = settings.retries();
        this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public void send(String messageId, PhoneNumber to, String text) throws SmsException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("messageId", messageId);
        body.put("to", to.e164());
        body.put("text", text);
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Authorization", "Bearer " + apiKey)
                .header("Idempotency-Key", messageId)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)))
                .build();
        String failure = null;
        for (int attempt = 0; attempt <= retries; attempt++) {
            if (attempt > 0) {
                pause(FIRST_BACKOFF.multipliedBy(1L << (attempt - 1)));
            }
            try {
                HttpResponse<Void> answer = client.send(request, HttpResponse.BodyHandlers.discarding());
                int status = answer.statusCode();
                if (status / 100 == 2 || status == 409) {
                    return;
                }
                failure = "the SMS provider answered " + status + " to " + messageId;
                if (status != 408 && status != 429 && status < 500) {
                    throw new SmsException(failure); // the request itself is wrong: retrying now changes nothing
                }
            } catch (HttpTimeoutException e) {
                failure = "the SMS provider did not answer " + messageId + " within " + timeout.toMillis() + " ms";
            } catch (IOException e) {
                failure = "the SMS provider could not be reached for " + messageId + ": " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SmsException("interrupted while sending " + messageId, e);
            }
        }
        throw new SmsException(failure);
    }

    private static void pause(Duration d) throws SmsException {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SmsException("interrupted between retries", e);
        }
    }

    /** Every call timing out, with the pauses between them. */
    @Override
    public Duration longestSend() {
        Duration pauses = FIRST_BACKOFF.multipliedBy((1L << retries) - 1);
        return timeout.multipliedBy(retries + 1L).plus(pauses);
    }

    @Override
    public void close() {
        client.close();
    }
}
