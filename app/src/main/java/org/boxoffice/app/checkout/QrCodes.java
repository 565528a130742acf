package org.boxoffice.app.checkout;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import com.google.zxing.qrcode.encoder.ByteMatrix;
import com.google.zxing.qrcode.encoder.Encoder;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Map;

/**
 * Renders ticket codes as QR images (PNG) with ZXing, or as the bare grid of modules that a page draws
 * itself (the web app's rotating codes: forty of them in one answer, each a few hundred bytes where an
 * image would be kilobytes). Stateless and thread-safe.
 */
public final class QrCodes {

    private static final int SIZE = 300;
    private static final int BLACK = 0xFF000000;
    private static final int WHITE = 0xFFFFFFFF;

    private QrCodes() {
    }

    /**
     * A QR code's modules: {@code size} × {@code size}, without the quiet zone (a drawing adds four
     * light modules on every side), as base64url (no padding) of the bits row by row, the first module
     * in the high bit of the first byte, 1 for dark; the last byte is padded with zeros.
     */
    public record Matrix(int size, String modules) {
    }

    /** The modules of {@code text}'s QR code, error correction M, as {@link #png} draws them. */
    public static Matrix matrix(String text) {
        ByteMatrix m;
        try {
            m = Encoder.encode(text, ErrorCorrectionLevel.M, Map.of()).getMatrix();
        } catch (WriterException e) {
            throw new IllegalArgumentException("cannot encode a QR code: " + e.getMessage(), e);
        }
        int size = m.getWidth();
        byte[] bits = new byte[(size * size + 7) / 8];
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                if (m.get(x, y) == 1) {
                    int i = y * size + x;
                    bits[i >> 3] |= (byte) (0x80 >>> (i & 7));
                }
            }
        }
        return new Matrix(size, Base64.getUrlEncoder().withoutPadding().encodeToString(bits));
    }

    /** A {@value #SIZE}-pixel PNG of {@code text}, error correction M, with the standard quiet zone. */
    public static byte[] png(String text) {
        BitMatrix matrix;
        try {
            matrix = new QRCodeWriter().encode(text, BarcodeFormat.QR_CODE, SIZE, SIZE,
                    Map.of(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M, EncodeHintType.MARGIN, 4));
        } catch (WriterException e) {
            throw new IllegalArgumentException("cannot encode a QR code: " + e.getMessage(), e);
        }
        BufferedImage image = new BufferedImage(matrix.getWidth(), matrix.getHeight(), BufferedImage.TYPE_BYTE_BINARY);
        for (int y = 0; y < matrix.getHeight(); y++) {
            for (int x = 0; x < matrix.getWidth(); x++) {
                image.setRGB(x, y, matrix.get(x, y) ? BLACK : WHITE);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            ImageIO.write(image, "png", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
