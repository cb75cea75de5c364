package dev.steward.service.tools;

import dev.steward.protocol.tool.ToolErrorCodes;
import dev.steward.service.scope.SafeFs;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Maps file-system exceptions to tool errors, once, with messages that name the user's path. */
public final class FileErrors {

  private FileErrors() {}

  public static ToolFailure of(IOException e, String requested) {
    if (e instanceof SafeFs.PathChanged) {
      return new ToolFailure(
          ToolErrorCodes.SCOPE_DENIED,
          "\"" + requested + "\" changed during the call: " + e.getMessage(),
          "/path",
          null);
    }
    if (e instanceof NoSuchFileException) {
      return new ToolFailure(
          ToolErrorCodes.NOT_FOUND, "\"" + requested + "\" does not exist", "/path", null);
    }
    if (e instanceof FileAlreadyExistsException) {
      return new ToolFailure(
          ToolErrorCodes.ALREADY_EXISTS, "\"" + requested + "\" already exists", "/path", null);
    }
    if (e instanceof NotDirectoryException) {
      return new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "a part of \"" + requested + "\" is not a folder",
          "/path",
          null);
    }
    if (e instanceof DirectoryNotEmptyException) {
      return new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "\"" + requested + "\" is a folder that is not empty",
          "/path",
          null);
    }
    if (e instanceof AccessDeniedException) {
      return new ToolFailure(
          ToolErrorCodes.EXECUTION_ERROR,
          "the system refused access to \"" + requested + "\"",
          "/path",
          null);
    }
    return new ToolFailure(
        ToolErrorCodes.EXECUTION_ERROR,
        "cannot use \"" + requested + "\": " + e.getMessage(),
        "/path",
        null);
  }
}
